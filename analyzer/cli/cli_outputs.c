/* --html, --metrics, --metrics-file (cli_outputs.h). */
#include "cli_outputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "http_metrics.h"
#include "output.h"

static struct {
    const struct options *o;
    FILE *html, *prom;
    struct metrics_http *http;
    struct series *s;
    struct capture *c;         /* during a poll */
} g;

int outputs_open(const struct options *o, char *err, size_t errlen)
{
    g.o = o;
    if (o->html && !(g.html = fopen(o->html, "w"))) {
        snprintf(err, errlen, "%s: %s", o->html, strerror(errno));
        return -1;
    }
    if (o->metrics_file && !(g.prom = fopen(o->metrics_file, "w"))) {
        snprintf(err, errlen, "%s: %s", o->metrics_file, strerror(errno));
        return -1;
    }
    if (o->metrics) {
        if (!o->interface) {
            snprintf(err, errlen, "--metrics serves a live capture (-i); for a file use --metrics-file");
            return -1;
        }
        if (!(g.http = metrics_http_open(o->metrics, err, errlen))) return -1;
        fputs("nfsscope: metrics at", stderr);
        for (int i = 0; metrics_http_address(g.http, i); i++)
            fprintf(stderr, "%s http://%s/metrics", i ? "," : "", metrics_http_address(g.http, i));
        fputc('\n', stderr);
    }
    return 0;
}

int outputs_attach(ns_analyzer *a, char *err, size_t errlen)
{
    if (!g.html && !g.prom && !g.http) return 0;
    if (!(g.s = series_new(a))) { snprintf(err, errlen, "out of memory for the charts' series"); return -1; }
    return 0;
}

void outputs_listener(ns_event_fn *fn, void **ctx)
{
    *fn = g.s ? series_on_event : NULL;
    *ctx = g.s;
}

static void capture_of(const struct ns_report_info *ri, struct out_capture *oc)
{
    *oc = (struct out_capture){.source = ri->source, .live = ri->live, .counters = ri->counters,
                               .kernel_drops = ri->kernel_drops, .interface_drops = ri->interface_drops,
                               .partial = ri->partial ? ri->partial_reason : NULL,
                               .min_severity = ri->min_severity};
}

static int render(void *ctx, FILE *f)
{
    ns_analyzer *a = ctx;
    struct capture_stats cs;
    capture_stats(g.c, &cs);
    struct out_capture oc = {.source = cs.source, .live = cs.live, .counters = cs.live && cs.stats_ok,
                             .frames = cs.frames, .kernel_drops = cs.kernel_drops, .interface_drops = cs.interface_drops};
    return metrics_write(f, a, g.s, &oc);
}

void outputs_poll(ns_analyzer *a, struct capture *c)
{
    if (!g.http || !g.s) return;
    g.c = c;
    metrics_http_poll(g.http, render, a);
}

static int close_file(FILE *f, const char *name, int rc)
{
    if (rc != 0 || fflush(f) != 0 || ferror(f)) rc = -1;
    if (fclose(f) != 0) rc = -1;
    if (rc != 0) fprintf(stderr, "nfsscope: %s: %s\n", name, strerror(errno ? errno : EIO));
    return rc != 0;
}

int outputs_finish(ns_analyzer *a, const struct ns_report_info *ri)
{
    int failed = 0;
    struct out_capture oc;
    capture_of(ri, &oc);
    if (g.html) failed += close_file(g.html, g.o->html, g.s ? html_write(g.html, a, g.s, &oc) : -1);
    if (g.prom) failed += close_file(g.prom, g.o->metrics_file, g.s ? metrics_write(g.prom, a, g.s, &oc) : -1);
    metrics_http_close(g.http);
    series_free(g.s);
    g.html = g.prom = NULL;
    g.http = NULL;
    g.s = NULL;
    return failed;
}
