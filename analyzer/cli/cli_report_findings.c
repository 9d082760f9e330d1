/* The "Findings" section (text) and findings[] (JSON). */
#include <inttypes.h>
#include <string.h>

#include "cli_json.h"
#include "cli_report.h"

static void conns_text(FILE *o, const struct ns_finding *f)
{
    for (unsigned i = 0; i < f->nconns; i++) fprintf(o, "%sc%u", i ? "," : "", f->conns[i]);
}

void report_findings_text(FILE *o, ns_analyzer *a)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v);
    fprintf(o, "\nFindings (%zu)\n", n);
    if (!n) { fputs("  none\n", o); return; }
    for (size_t i = 0; i < n; i++) {
        const struct ns_finding *f = v[i];
        char t0[32], t1[32];
        report_clock(t0, sizeof t0, f->first_ts_ns);
        report_clock(t1, sizeof t1, f->last_ts_ns);
        fprintf(o, "  %-8s %-20s %s..%s  x%" PRIu64, ns_severity_name(f->severity), f->kind, t0, t1, f->count);
        if (f->nconns) { fputs("  conns ", o); conns_text(o, f); }
        fputc('\n', o);
        fprintf(o, "           %s", f->message);
        if (f->rfc[0]) fprintf(o, " [%s]", f->rfc);
        fputc('\n', o);
        if (f->has_session) {
            fputs("           session ", o);
            for (int b = 0; b < 16; b++) fprintf(o, "%02x", f->sessionid[b]);
            fputc('\n', o);
        }
        if (f->nframes) {
            fputs("           frames", o);
            for (unsigned k = 0; k < f->nframes; k++) fprintf(o, " %" PRIu64, f->frames[k]);
            fputc('\n', o);
        }
    }
    uint64_t dropped = ns_analyzer_findings_dropped(a);
    if (dropped) fprintf(o, "  (%" PRIu64 " more findings not kept: memory cap)\n", dropped);
}

void report_findings_json(FILE *o, ns_analyzer *a)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v);
    fputs(",\"findings\":[", o);
    for (size_t i = 0; i < n; i++) {
        const struct ns_finding *f = v[i];
        fputs(i ? ",{\"kind\":" : "{\"kind\":", o);
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
        for (unsigned k = 0; k < f->nconns; k++) fprintf(o, "%s\"c%u\"", k ? "," : "", f->conns[k]);
        fputs("],\"frames\":[", o);
        for (unsigned k = 0; k < f->nframes; k++) fprintf(o, "%s%" PRIu64, k ? "," : "", f->frames[k]);
        fputs("],\"message\":", o);
        json_cstr(o, f->message);
        fputs(",\"rfc\":", o);
        if (f->rfc[0]) json_cstr(o, f->rfc); else fputs("null", o);
        fputc('}', o);
    }
    fprintf(o, "],\"findings_dropped\":%" PRIu64, ns_analyzer_findings_dropped(a));
}

bool report_has_finding(ns_analyzer *a, const char *kinds)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v);
    for (size_t i = 0; i < n; i++) {
        const char *p = kinds;
        size_t kl = strlen(v[i]->kind);
        while (*p) {
            size_t l = strcspn(p, ",");
            if (l == kl && strncmp(p, v[i]->kind, l) == 0) return true;
            p += l;
            if (*p == ',') p++;
        }
    }
    return false;
}
