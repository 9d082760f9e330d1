/* The "Findings" section (text) and findings[] (JSON). The text folds many
 * findings of one kind and severity into one entry (report_fold.c). */
#include <inttypes.h>
#include <stdlib.h>

#include "json_write.h"
#include "report_int.h"

bool report_lists_finding(const struct ns_report_info *ri, const struct ns_finding *f)
{
    return filter_shows_finding(ri->filter, f) && f->severity >= ri->min_severity;
}

void report_finding_conns(FILE *o, const struct ns_finding *f)
{
    char id[NS_CONN_NAME_LEN];
    for (unsigned i = 0; i < f->nconns; i++) fprintf(o, "%s%s", i ? "," : "", ns_conn_name(f->conns[i], id, sizeof id));
}

/* The capture-loss line of a finding, if loss may explain it. */
static void loss_note(FILE *o, ns_analyzer *a, const struct ns_finding *f, bool lossy)
{
    uint64_t gaps = ns_finding_capture_gaps(a, f);
    if (lossy && ns_finding_loss_may_cause(f->kind))
        fputs("           possibly caused by capture loss: the capture dropped frames\n", o);
    else if (gaps)
        fprintf(o, "           possibly caused by capture loss: %" PRIu64 " gap%s in the capture%s\n", gaps,
                gaps == 1 ? "" : "s", f->nconns ? " on its connections" : "");
}

bool report_finding_loss_possible(ns_analyzer *a, const struct ns_finding *f, bool lossy)
{
    return (lossy && ns_finding_loss_may_cause(f->kind)) || ns_finding_capture_gaps(a, f);
}

static void finding_text(FILE *o, ns_analyzer *a, const struct ns_finding *f, bool lossy)
{
    char t0[NS_TIME_STRLEN], t1[NS_TIME_STRLEN];
    ns_clock_str(f->first_ts_ns, t0, sizeof t0);
    ns_clock_str(f->last_ts_ns, t1, sizeof t1);
    fprintf(o, "  %-8s %-20s %s..%s  x%" PRIu64, ns_severity_name(f->severity), f->kind, t0, t1, f->count);
    if (f->nconns) { fputs("  conns ", o); report_finding_conns(o, f); }
    fputc('\n', o);
    fprintf(o, "           %s", f->message);
    if (f->rfc[0]) fprintf(o, " [%s]", f->rfc);
    fputc('\n', o);
    if (f->has_session) {
        char sid[2 * NS_SESSIONID_LEN + 1];
        ns_hex_str(f->sessionid, NS_SESSIONID_LEN, sid, sizeof sid);
        fprintf(o, "           session %s\n", sid);
    }
    if (f->nframes) {
        fputs("           frames", o);
        for (unsigned k = 0; k < f->nframes; k++) fprintf(o, " %" PRIu64, f->frames[k]);
        fputc('\n', o);
    }
    loss_note(o, a, f, lossy);
}

/* "Findings (6 of 47: --min-severity warning leaves out 41 info)" */
static void heading(FILE *o, const struct ns_section_info *sec, size_t shown, const size_t below[4],
                    const struct ns_report_info *ri)
{
    size_t hidden = below[0] + below[1] + below[2] + below[3];
    if (!hidden) { fprintf(o, "\n%s (%zu)\n", sec->title, shown); return; }
    fprintf(o, "\n%s (%zu of %zu: --min-severity %s leaves out", sec->title, shown, shown + hidden,
            ns_severity_name(ri->min_severity));
    const char *sep = " ";
    for (int s = 3; s >= 0; s--) {
        if (!below[s]) continue;
        fprintf(o, "%s%zu %s", sep, below[s], ns_severity_name((uint8_t)s));
        sep = ", ";
    }
    fputs(")\n", o);
}

void report_findings_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec, const struct ns_report_info *ri)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v), shown = 0, below[4] = {0};
    bool lossy = report_lossy(ri);
    const struct ns_finding **list = n ? malloc(n * sizeof *list) : NULL;
    for (size_t i = 0; i < n; i++) {
        if (!filter_shows_finding(ri->filter, v[i])) continue;
        if (v[i]->severity < ri->min_severity) below[v[i]->severity & 3]++;
        else if (list) list[shown++] = v[i];
        else shown++;
    }
    heading(o, sec, shown, below, ri);
    int64_t lo, hi;
    if (shown && filter_window(ri->filter, &lo, &hi)) /* a finding folds every occurrence: it cannot be cut at the window */
        fputs("  those overlapping the window; their counts, times and frames are of the whole capture\n", o);
    if (!shown) fputs("  none\n", o);
    /* -v and --all-findings list every one; so does a report without memory for the list */
    struct report_fold *fold = list && !ri->all_findings && ri->verbosity <= 0 ? report_fold_new(list, shown) : NULL;
    for (size_t i = 0; list && i < shown; i++)
        if (!fold || !report_fold_text(o, a, fold, i, lossy)) finding_text(o, a, list[i], lossy);
    for (size_t i = 0; !list && i < n; i++)
        if (report_lists_finding(ri, v[i])) finding_text(o, a, v[i], lossy);
    report_fold_free(fold);
    free(list);
    uint64_t dropped = ns_analyzer_findings_dropped(a);
    if (dropped) fprintf(o, "  (%" PRIu64 " more findings not kept: memory cap)\n", dropped);
}

void report_findings_json(FILE *o, ns_analyzer *a, const struct ns_report_info *ri)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v);
    bool first = true, lossy = report_lossy(ri);
    uint64_t below = 0;
    fputs(",\"findings\":[", o);
    for (size_t i = 0; i < n; i++) {
        const struct ns_finding *f = v[i];
        if (!filter_shows_finding(ri->filter, f)) continue;
        if (f->severity < ri->min_severity) { below++; continue; }
        fputs(first ? "{\"kind\":" : ",{\"kind\":", o);
        first = false;
        json_cstr(o, f->kind);
        fputs(",\"severity\":", o);
        json_cstr(o, ns_severity_name(f->severity));
        fputs(",\"first_ts\":", o);
        json_ts(o, f->first_ts_ns);
        fputs(",\"last_ts\":", o);
        json_ts(o, f->last_ts_ns);
        fprintf(o, ",\"count\":%" PRIu64 ",\"session\":", f->count);
        if (f->has_session) json_hex(o, f->sessionid, 16); else fputs("null", o);
        fputs(",\"client\":", o);
        if (f->has_client) fprintf(o, "\"%016" PRIx64 "\"", f->clientid); else fputs("null", o);
        fputs(",\"connections\":[", o);
        for (unsigned k = 0; k < f->nconns; k++) {
            if (k) fputc(',', o);
            json_conn(o, f->conns[k]);
        }
        fputs("],\"frames\":[", o);
        for (unsigned k = 0; k < f->nframes; k++) fprintf(o, "%s%" PRIu64, k ? "," : "", f->frames[k]);
        fputs("],\"message\":", o);
        json_cstr(o, f->message);
        fputs(",\"rfc\":", o);
        if (f->rfc[0]) json_cstr(o, f->rfc); else fputs("null", o);
        uint64_t gaps = ns_finding_capture_gaps(a, f);
        fprintf(o, ",\"capture_loss_possible\":%s,\"capture_gaps\":%" PRIu64 "}",
                (lossy && ns_finding_loss_may_cause(f->kind)) || gaps ? "true" : "false", gaps);
    }
    fprintf(o, "],\"findings_dropped\":%" PRIu64, ns_analyzer_findings_dropped(a));
    /* --min-severity: the findings left out are counted, never folded away silently */
    fputs(",\"findings_min_severity\":", o);
    if (ri->min_severity) json_cstr(o, ns_severity_name(ri->min_severity)); else fputs("null", o);
    fprintf(o, ",\"findings_below_min_severity\":%" PRIu64, below);
}
