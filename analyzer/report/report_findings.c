/* The "Findings" section (text) and findings[] (JSON). */
#include <inttypes.h>

#include "json_write.h"
#include "report_int.h"


static void conns_text(FILE *o, const struct ns_finding *f)
{
    char id[NS_CONN_NAME_LEN];
    for (unsigned i = 0; i < f->nconns; i++) fprintf(o, "%s%s", i ? "," : "", ns_conn_name(f->conns[i], id, sizeof id));
}

void report_findings_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec, bool lossy,
                          const struct ns_report_filter *flt)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v), shown = 0;
    for (size_t i = 0; i < n; i++) shown += filter_shows_finding(flt, v[i]);
    fprintf(o, "\n%s (%zu)\n", sec->title, shown);
    int64_t lo, hi;
    if (shown && filter_window(flt, &lo, &hi)) /* a finding folds every occurrence: it cannot be cut at the window */
        fputs("  those overlapping the window; their counts, times and frames are of the whole capture\n", o);
    if (!shown) { fputs("  none\n", o); return; }
    for (size_t i = 0; i < n; i++) {
        const struct ns_finding *f = v[i];
        if (!filter_shows_finding(flt, f)) continue;
        char t0[NS_TIME_STRLEN], t1[NS_TIME_STRLEN];
        ns_clock_str(f->first_ts_ns, t0, sizeof t0);
        ns_clock_str(f->last_ts_ns, t1, sizeof t1);
        fprintf(o, "  %-8s %-20s %s..%s  x%" PRIu64, ns_severity_name(f->severity), f->kind, t0, t1, f->count);
        if (f->nconns) { fputs("  conns ", o); conns_text(o, f); }
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
        uint64_t gaps = ns_finding_capture_gaps(a, f);
        if (lossy && ns_finding_loss_may_cause(f->kind))
            fputs("           possibly caused by capture loss: the capture dropped frames\n", o);
        else if (gaps)
            fprintf(o, "           possibly caused by capture loss: %" PRIu64 " gap%s in the capture%s\n", gaps,
                    gaps == 1 ? "" : "s", f->nconns ? " on its connections" : "");
    }
    uint64_t dropped = ns_analyzer_findings_dropped(a);
    if (dropped) fprintf(o, "  (%" PRIu64 " more findings not kept: memory cap)\n", dropped);
}

void report_findings_json(FILE *o, ns_analyzer *a, bool lossy, const struct ns_report_filter *flt)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v);
    bool first = true;
    fputs(",\"findings\":[", o);
    for (size_t i = 0; i < n; i++) {
        const struct ns_finding *f = v[i];
        if (!filter_shows_finding(flt, f)) continue;
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
}
