/* nfsscope: read a capture (or an interface) with libpcap, feed the core,
 * print the report. */
#include <errno.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "cli_options.h"
#include "cli_privs.h"
#include "cli_progress.h"
#include "cli_report.h"
#include "cli_txnlog.h"
#include "nfsscope/nfsscope.h"

static struct capture *g_capture; /* for the signal handler only */

static void on_signal(int sig)
{
    (void)sig;
    if (g_capture) capture_stop(g_capture);
}

int main(int argc, char **argv)
{
    struct options o;
    int rc = options_parse(argc, argv, &o);
    if (rc) return rc > 0 ? 0 : 1;
    const char *src = o.read_file ? o.read_file : o.interface;
    char err[512] = "";
    struct privs pv;
    if (privs_plan(&pv, o.user, o.interface != NULL, err, sizeof err) != 0) {
        fprintf(stderr, "nfsscope: %s\n", err);
        options_free(&o);
        return 1;
    }
    struct capture *p = capture_open(&o, err, sizeof err);
    if (!p) {
        fprintf(stderr, "nfsscope: %s: %s\n", strcmp(src, "-") ? src : "standard input", err);
        options_free(&o);
        return 1;
    }
    FILE *out = stdout, *log = NULL;
    if (o.output && !(out = fopen(o.output, "w"))) {
        fprintf(stderr, "nfsscope: %s: %s\n", o.output, strerror(errno));
        capture_close(p);
        options_free(&o);
        return 1;
    }
    if (o.txn_log) {
        log = strcmp(o.txn_log, "-") == 0 ? stdout : fopen(o.txn_log, "w");
        if (!log) {
            fprintf(stderr, "nfsscope: %s: %s\n", o.txn_log, strerror(errno));
            capture_close(p);
            options_free(&o);
            return 1;
        }
    }
    /* Everything nfsscope will write is open: give up root (like tcpdump). */
    if (privs_drop(&pv, err, sizeof err) != 0) {
        fprintf(stderr, "nfsscope: %s\n", err);
        capture_close(p);
        options_free(&o);
        return 1;
    }
    struct ns_config cfg = NS_CONFIG_INIT;
    cfg.memcap = o.memcap;
    cfg.call_timeout_ns = o.call_timeout_ns;
    cfg.storm_count = o.storm_count;
    cfg.storm_window_ns = o.storm_window_ns;
    cfg.grace_period_ns = o.grace_period_ns;
    cfg.rto_factor = o.rto_factor;
    cfg.udp_timeo_ns = o.udp_timeo_ns;
    cfg.udp_retrans = o.udp_retrans;
    char aerr[NS_ERRBUF_SIZE];
    ns_analyzer *a = ns_analyzer_new(&cfg, aerr, sizeof aerr);
    if (!a) {
        fprintf(stderr, "nfsscope: %s\n", aerr);
        capture_close(p);
        options_free(&o);
        return 1;
    }
    struct txnlog tl = {log, a};
    if (log) ns_analyzer_on_txn(a, txnlog_write, &tl);

    struct report_info ri = {.source = strcmp(src, "-") ? src : "standard input", .live = o.interface != NULL};
    bool progress = o.read_file && (o.progress == 1 || (o.progress < 0 && isatty(STDERR_FILENO)));
    struct progress pr;
    progress_start(&pr, progress ? capture_file(p) : NULL, o.read_file);
    if (o.interface) {
        g_capture = p;
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
    }

    uint64_t n = 0;
    int r;
    struct ns_frame f;
    while ((r = capture_next(p, &f)) >= 0) {
        if (r == 0) continue; /* live timeout */
        n = f.number;
        ns_analyzer_feed(a, &f);
        if (progress && (n & 4095) == 0) progress_tick(&pr, n);
        if (o.count && (long long)n >= o.count) break;
    }
    if (capture_error(p)) {
        ri.partial = true;
        snprintf(ri.partial_reason, sizeof ri.partial_reason, "capture cut off or damaged after frame %llu: %s",
                 (unsigned long long)n, capture_error(p));
    }
    progress_end(&pr);
    ns_analyzer_finish(a);
    if (ri.partial) fprintf(stderr, "nfsscope: %s: %s\n", ri.source, ri.partial_reason);
    /* With the log on stdout, the report goes only where -o says. */
    bool report = !(log == stdout && !o.output);
    if (report && o.format == FORMAT_JSON) report_json(out, a, &ri);
    else if (report) report_text(out, a, &ri);

    int status = ri.partial ? 2 : 0;
    if (status == 0 && o.fail_on && ns_findings_any_of(a, o.fail_on)) status = 3;
    if (fflush(out) != 0 || (log && fflush(log) != 0)) {
        fprintf(stderr, "nfsscope: writing output: %s\n", strerror(errno));
        status = 1;
    }
    if (out != stdout) fclose(out);
    if (log && log != stdout) fclose(log);
    ns_analyzer_free(a);
    capture_close(p);
    options_free(&o);
    return status;
}
