/* The report of a run, as text or JSON (doc/json-report.md). */
#ifndef NFSSCOPE_CLI_REPORT_H
#define NFSSCOPE_CLI_REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/view.h"
#include "cli_filter.h"
#include "cli_programs.h"

struct report_info {
    const char *source;       /* file name or interface */
    bool live;
    bool counters;            /* live, and pcap_stats answered: the drop counts are known */
    uint64_t kernel_drops, interface_drops;
    int64_t start_ns, end_ns; /* live: wall clock (CLOCK_REALTIME) when the capture opened and ended */
    bool partial;             /* the capture ended early (cut off, read error) */
    char partial_reason[256];
    struct programs *programs; /* MOUNT, portmap ... per procedure, or NULL */
    struct filter *filter;    /* --client, --session ..., or NULL */
    long long count;          /* -c (0: none) */
    int verbosity;            /* -q -1: summary sections only; -v 1: more per table */
};

/* Frames were lost before nfsscope saw them: counts are lower bounds. */
static inline bool report_lossy(const struct report_info *ri)
{
    return ri->counters && (ri->kernel_drops || ri->interface_drops);
}
/* Findings that a frame missing from the capture can raise by itself. */

void report_text(FILE *o, ns_analyzer *a, const struct report_info *ri);
void report_json(FILE *o, ns_analyzer *a, const struct report_info *ri);

/* Sections kept in their own files. The text ones print the heading of the
 * section they are given. */
/* lossy: frames were dropped; findings loss alone can raise say so. */
/* flt: --client, --session ... (NULL: everything); rows it leaves out are
 * not printed and not counted in the section's heading. */
void report_findings_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec, bool lossy, const struct filter *flt);
void report_findings_json(FILE *o, ns_analyzer *a, bool lossy, const struct filter *flt);
void report_udp_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec, const struct filter *flt); /* cli_report_udp.c */
/* Incomplete datagrams of the UDP pairs where no datagram ever had more
 * than one fragment captured: the later fragments were filtered out (a
 * capture filter such as 'port 2049'), not lost. */
uint64_t report_first_fragment_only(ns_analyzer *a);
void report_udp_json(FILE *o, ns_analyzer *a, const struct filter *flt); /* udp[], udp_pairs[], udp_evicted */
void report_clients_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec, const struct filter *flt); /* cli_report_sessions.c */
void report_sessions_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec, const struct filter *flt);
/* One section of the text report (Sessions or Findings), unfiltered and
 * wrapped as the report is: the Wireshark plugin's -z nfsscope tables. */
void report_section_text(FILE *o, ns_analyzer *a, enum ns_section which);
void report_read_plus_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec);
void report_sessions_json(FILE *o, ns_analyzer *a, const struct filter *flt); /* clients[], sessions[], read_plus */

#endif
