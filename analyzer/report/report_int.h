/* What the report's files share (private to analyzer/report): the run's
 * info as the printers read it, and the sections kept in files of their
 * own. */
#ifndef NFSSCOPE_REPORT_INT_H
#define NFSSCOPE_REPORT_INT_H
#include <stdbool.h>
#include <stdio.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/report.h"
#include "nfsscope/view.h"
#include "report_filter.h"
#include "report_programs.h"

/* A caller's info read up to its .size, the rest zero (nfsscope/report.h). */
void report_info_read(struct ns_report_info *out, const struct ns_report_info *in);

/* Frames were lost before nfsscope saw them: counts are lower bounds. */
static inline bool report_lossy(const struct ns_report_info *ri)
{
    return ri->counters && (ri->kernel_drops || ri->interface_drops);
}

/* Sections kept in their own files. The text ones print the heading of the
 * section they are given. */
/* Findings (report_findings.c): those the narrowing shows (ri->filter) at
 * or above ri->min_severity; the text folds many of one kind
 * (report_fold.c) unless ri->all_findings or -v. */
bool report_lists_finding(const struct ns_report_info *ri, const struct ns_finding *f);
void report_findings_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec, const struct ns_report_info *ri);
void report_findings_json(FILE *o, ns_analyzer *a, const struct ns_report_info *ri);
void report_finding_conns(FILE *o, const struct ns_finding *f);                   /* "c1,c3" */
bool report_finding_loss_possible(ns_analyzer *a, const struct ns_finding *f, bool lossy);
/* Folding: list (n findings, in report order) grouped by kind and severity;
 * NULL when out of memory (nothing folds). report_fold_text: false when the
 * finding at pos is not folded (print it); else true, and the folded entry
 * is printed if pos is the first of its group. */
struct report_fold;
struct report_fold *report_fold_new(const struct ns_finding *const *list, size_t n);
bool report_fold_text(FILE *o, ns_analyzer *a, const struct report_fold *fold, size_t pos, bool lossy);
void report_fold_free(struct report_fold *fold);
void report_udp_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec,
                     const struct ns_report_filter *flt); /* report_udp.c */
/* Incomplete datagrams of the UDP pairs where no datagram ever had more
 * than one fragment captured: the later fragments were filtered out (a
 * capture filter such as 'port 2049'), not lost. */
uint64_t report_first_fragment_only(ns_analyzer *a);
/* Files, Users, Clients by address (report_who.c); nothing under narrowing. */
void report_who_text(FILE *o, ns_analyzer *a, const struct ns_report_info *ri);
void report_who_json(FILE *o, ns_analyzer *a, const struct ns_report_info *ri); /* files[], users[], clients_by_address[], who */
void report_udp_json(FILE *o, ns_analyzer *a, const struct ns_report_filter *flt); /* udp[], udp_pairs[], udp_evicted */
/* report_deleg.c: a client's delegations and lease (text lines, JSON members). */
void report_deleg_text(FILE *o, const struct ns_client_view *c);
void report_deleg_json(FILE *o, const struct ns_client_view *c);
void report_clients_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec,
                         const struct ns_report_filter *flt); /* report_sessions.c */
void report_sessions_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec,
                          const struct ns_report_filter *flt);
void report_read_plus_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec);
void report_sessions_json(FILE *o, ns_analyzer *a, const struct ns_report_filter *flt); /* clients[], sessions[], read_plus */

/* Two points (--peer): the text section and the JSON object (report_two_point.c). */
void report_two_point_text(FILE *o, const struct ns_tp_result *r);
void report_two_point_json(FILE *o, const struct ns_tp_result *r); /* ,"two_point":{...} */

#endif
