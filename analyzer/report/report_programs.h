/* The Other RPC programs table (nfsscope/report.h: ns_report_programs_new
 * ...): its rows, as the printers read them. */
#ifndef NFSSCOPE_REPORT_PROGRAMS_H
#define NFSSCOPE_REPORT_PROGRAMS_H
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/report.h"
#include "nfsscope/stats.h"

#define PROGRAMS_MAX 64 /* procedures kept; more are counted in overflow */

struct program_row {
    uint32_t prog, vers, proc;
    uint64_t calls, errors;     /* errors: RPC not SUCCESS, or a MOUNT status other than 0 */
    struct ns_latency latency;
};

struct ns_report_programs {
    ns_txn_fn next;             /* also called for every transaction (the txn log), or NULL */
    void *next_ctx;
    size_t n;
    uint64_t overflow;          /* transactions of procedures beyond PROGRAMS_MAX */
    struct program_row rows[PROGRAMS_MAX];
};

/* Rows sorted by program, version, procedure. */
void programs_sort(struct ns_report_programs *p);

#endif
