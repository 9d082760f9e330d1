/* The report of a run, as text or JSON (doc/json-report.md). */
#ifndef NFSSCOPE_CLI_REPORT_H
#define NFSSCOPE_CLI_REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include "nfsscope/nfsscope.h"

struct report_info {
    const char *source;       /* file name or interface */
    bool live;
    bool partial;             /* the capture ended early (cut off, read error) */
    char partial_reason[256];
};

void report_text(FILE *o, ns_analyzer *a, const struct report_info *ri);
void report_json(FILE *o, ns_analyzer *a, const struct report_info *ri);

/* Sections kept in their own files. */
void report_findings_text(FILE *o, ns_analyzer *a);
void report_findings_json(FILE *o, ns_analyzer *a);
void report_udp_text(FILE *o, ns_analyzer *a);        /* cli_report_udp.c: "UDP transport" */
void report_udp_json(FILE *o, ns_analyzer *a);        /* udp[], udp_pairs[], udp_evicted */
void report_sessions_text(FILE *o, ns_analyzer *a);   /* cli_report_sessions.c */
void report_read_plus_text(FILE *o, ns_analyzer *a);
void report_sessions_json(FILE *o, ns_analyzer *a);   /* clients[], sessions[], read_plus */
/* true if a finding of one of the comma-separated kinds exists (--fail-on). */
bool report_has_finding(ns_analyzer *a, const char *kinds);
/* "10:00:01.123456" (UTC time of day) for compact columns. */
void report_clock(char *buf, size_t n, int64_t ns);

/* Shared by both formats: operation keys and status entries in print order. */
struct op_row { uint32_t key; const char *name; const struct ns_op_stats *s; };
size_t report_op_rows(const struct ns_stats *st, struct op_row *rows, size_t cap);
struct status_row { const char *name; uint64_t count; };
size_t report_status_rows(const struct ns_stats *st, struct status_row *rows, size_t cap);
/* "v3", "v4.0", ... for the bits of NS_VERS_BIT, in order. */
size_t report_versions(uint32_t bits, const char **names, size_t cap);

#endif
