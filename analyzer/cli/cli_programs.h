/* RPC programs other than NFS (MOUNT, portmap/rpcbind, NLM, NSM ...): the
 * analyzer counts their calls in the RPC totals; this keeps per procedure
 * counts and latency from the transaction callback so the report can list
 * them (doc/json-report.md "programs"). */
#ifndef NFSSCOPE_CLI_PROGRAMS_H
#define NFSSCOPE_CLI_PROGRAMS_H
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/stats.h"

#define PROGRAMS_MAX 64 /* procedures kept; more are counted in overflow */

struct program_row {
    uint32_t prog, vers, proc;
    uint64_t calls, errors;     /* errors: RPC not SUCCESS, or a MOUNT status other than 0 */
    struct ns_latency latency;
};

struct programs {
    ns_txn_fn next;             /* also called for every transaction (the --txn-log writer), or NULL */
    void *next_ctx;
    size_t n;
    uint64_t overflow;          /* transactions of procedures beyond PROGRAMS_MAX */
    struct program_row *rows;   /* PROGRAMS_MAX, allocated once */
};

/* 0, or -1 out of memory. */
int programs_init(struct programs *p, ns_txn_fn next, void *next_ctx);
void programs_free(struct programs *p);
/* ns_txn_fn; ctx is a struct programs. */
void programs_on_txn(void *ctx, const struct ns_txn *t);
/* Rows sorted by program, version, procedure. */
void programs_sort(struct programs *p);

#endif
