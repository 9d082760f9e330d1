/* The report of a run, as text or JSON (doc/json-report.md). */
#ifndef NFSSCOPE_CLI_REPORT_H
#define NFSSCOPE_CLI_REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/view.h"

struct report_info {
    const char *source;       /* file name or interface */
    bool live;
    bool partial;             /* the capture ended early (cut off, read error) */
    char partial_reason[256];
};

void report_text(FILE *o, ns_analyzer *a, const struct report_info *ri);
void report_json(FILE *o, ns_analyzer *a, const struct report_info *ri);

/* Sections kept in their own files. The text ones print the heading of the
 * section they are given. */
void report_findings_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec);
void report_findings_json(FILE *o, ns_analyzer *a);
void report_udp_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec); /* cli_report_udp.c */
void report_udp_json(FILE *o, ns_analyzer *a);        /* udp[], udp_pairs[], udp_evicted */
void report_clients_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec); /* cli_report_sessions.c */
void report_sessions_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec);
void report_read_plus_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec);
void report_sessions_json(FILE *o, ns_analyzer *a);   /* clients[], sessions[], read_plus */

#endif
