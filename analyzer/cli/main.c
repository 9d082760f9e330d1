/* nfsscope: open the capture (file or interface), run the batch loop or the
 * screen, print the report. */
#include <errno.h>
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "cli_finding_kinds.h"
#include "cli_options.h"
#include "cli_outputs.h"
#include "cli_peer.h"
#include "cli_privs.h"
#include "cli_txnlog.h"
#include "run_batch.h"
#include "run_screen.h"
#include "nfsscope/nfsscope.h"
#include "nfsscope/report.h"

static struct capture *g_capture; /* for the signal handler only */

static void on_signal(int sig)
{
    (void)sig;
    if (g_capture) capture_stop(g_capture);
}

/* SIGINT, SIGTERM and SIGHUP end the capture the same way: drain, finish,
 * report. SA_RESTART: a read blocked on a pipe restarts and sees the pipe
 * made non-blocking by capture_stop. A closed stdout must not kill us before
 * the report file (-o) is written: EPIPE is handled where we write. */
static void signals_install(struct capture *c)
{
    g_capture = c;
    struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* tcpdump's closing lines, on stderr. */
static void print_counters(const struct capture_stats *cs)
{
    fprintf(stderr, "%" PRIu64 " packets captured\n", cs->frames);
    if (!cs->stats_ok) return;
    fprintf(stderr, "%" PRIu64 " packets received by filter\n", cs->received);
    fprintf(stderr, "%" PRIu64 " packets dropped by kernel\n", cs->kernel_drops);
    fprintf(stderr, "%" PRIu64 " packets dropped by interface\n", cs->interface_drops);
}

static bool want_screen(const struct options *o)
{
    return o->screen == 1 || (o->screen == -1 && o->interface && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO));
}

/* Reassembly and decoding free and take back buffers of 128 KiB and more all
 * the time (large READ/WRITE records). glibc's defaults give them to the
 * kernel and map them again (an mmap, or a brk trim, per buffer, then page
 * faults): 0.209 -> 0.166 s on the samples replicated to 400 MB, peak RSS
 * 22.0 -> 22.8 MiB. The memory cap still bounds what is in use; this keeps
 * up to 32 MiB of freed heap for reuse. The program's choice, not the
 * library's (the Wireshark plugin lives in another program's heap). */
static void malloc_keep_buffers(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
}

int main(int argc, char **argv)
{
    malloc_keep_buffers();
    struct options o;
    int rc = options_parse(argc, argv, &o);
    if (rc) {
        options_free(&o); /* --fail-on's copy */
        return rc > 0 ? 0 : 1;
    }
    const char *src = o.read_file ? o.read_file : o.interface;
    char err[1024] = "";
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
    if (o.output && strcmp(o.output, "-") != 0 && !(out = fopen(o.output, "w"))) {
        fprintf(stderr, "nfsscope: %s: %s\n", o.output, strerror(errno));
        capture_close(p, NULL, 0);
        options_free(&o);
        return 1;
    }
    if (o.txn_log) {
        log = strcmp(o.txn_log, "-") == 0 ? stdout : fopen(o.txn_log, "w");
        if (!log) {
            fprintf(stderr, "nfsscope: %s: %s\n", o.txn_log, strerror(errno));
            capture_close(p, NULL, 0);
            options_free(&o);
            return 1;
        }
    }
    if (outputs_open(&o, err, sizeof err) != 0) {
        fprintf(stderr, "nfsscope: %s\n", err);
        capture_close(p, NULL, 0);
        options_free(&o);
        return 1;
    }
    /* Everything nfsscope will write is open: give up root (like tcpdump). */
    if (privs_drop(&pv, err, sizeof err) != 0) {
        fprintf(stderr, "nfsscope: %s\n", err);
        capture_close(p, NULL, 0);
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
    /* Only the txn log needs transactions in call order: without it they are
     * handed out as soon as done, and memory holds only calls outstanding. */
    cfg.txn_order = log ? NS_ORDER_CALL : NS_ORDER_COMPLETION;
    memcpy(cfg.rpc_ports, o.rpc_ports, sizeof cfg.rpc_ports);
    char aerr[NS_ERRBUF_SIZE];
    ns_analyzer *a = ns_analyzer_new(&cfg, aerr, sizeof aerr);
    if (!a) {
        fprintf(stderr, "nfsscope: %s\n", aerr);
        capture_close(p, NULL, 0);
        options_free(&o);
        return 1;
    }
    struct txnlog tl = {log, a, NULL};
    /* the non-NFS programs' table; passes each transaction on to the log */
    ns_report_programs *pg = ns_report_programs_new(log ? txnlog_write : NULL, &tl);
    if (!pg) {
        fprintf(stderr, "nfsscope: out of memory\n");
        ns_analyzer_free(a);
        capture_close(p, NULL, 0);
        options_free(&o);
        return 1;
    }
    /* --client, --session ...: transactions pass the filter before the
     * programs' table and the log see them */
    bool oom;
    ns_report_filter *flt = ns_report_filter_new(&o.narrow, a, ns_report_programs_on_txn, pg, &oom);
    if (oom) {
        fprintf(stderr, "nfsscope: out of memory\n");
        ns_report_programs_free(pg);
        ns_analyzer_free(a);
        capture_close(p, NULL, 0);
        options_free(&o);
        return 1;
    }
    /* --peer: the server's capture analysed now; the client's transactions
     * then learn their split on their way to the filter and the log */
    struct peer peer = {0};
    if (o.peer && peer_open(&peer, o.peer, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "nfsscope: %s\n", err);
        ns_report_filter_free(flt);
        ns_report_programs_free(pg);
        ns_analyzer_free(a);
        capture_close(p, NULL, 0);
        options_free(&o);
        return 1;
    }
    if (peer.tp) {
        peer_attach(&peer, a, flt ? ns_report_filter_on_txn : ns_report_programs_on_txn, flt ? (void *)flt : (void *)pg);
        tl.split = &peer.split;
        ns_analyzer_on_txn(a, peer_on_txn, &peer);
    } else {
        ns_analyzer_on_txn(a, flt ? ns_report_filter_on_txn : ns_report_programs_on_txn, flt ? (void *)flt : (void *)pg);
    }
    /* the page's and the metrics' series: every event, whatever the narrowing */
    if (outputs_attach(a, aerr, sizeof aerr) != 0) {
        fprintf(stderr, "nfsscope: %s\n", aerr);
        peer_close(&peer);
        ns_report_filter_free(flt);
        ns_report_programs_free(pg);
        ns_analyzer_free(a);
        capture_close(p, NULL, 0);
        options_free(&o);
        return 1;
    }

    signals_install(p);
    bool screen = want_screen(&o);
    if (o.interface && !screen) {
        char what[1400];
        capture_describe(p, what, sizeof what);
        fprintf(stderr, "nfsscope: %s\n", what);
    }
    int status = screen ? run_screen(p, a, &o) : run_batch(p, a, &o);
    capture_end(p);
    struct capture_stats cs;
    capture_stats(p, &cs);
    struct ns_report_info ri = NS_REPORT_INFO_INIT;
    ri.source = cs.source;
    ri.live = cs.live;
    ri.counters = cs.live && cs.stats_ok;
    ri.kernel_drops = cs.kernel_drops;
    ri.interface_drops = cs.interface_drops;
    ri.start_ns = cs.start_ns;
    ri.end_ns = cs.end_ns;
    ri.verbosity = o.verbosity;
    ri.programs = pg;
    ri.filter = flt;
    ri.count = o.count;
    ri.bpf_filter = capture_filter(p);
    ri.min_severity = o.min_severity;
    ri.all_findings = o.all_findings;
    if (capture_error(p)) {
        ri.partial = true;
        snprintf(ri.partial_reason, sizeof ri.partial_reason, "capture cut off or damaged after frame %llu: %s",
                 (unsigned long long)cs.frames_read, capture_error(p));
    }
    ns_analyzer_finish(a);
    if (peer.tp) {
        if (peer_finish(&peer, o.read_file, err, sizeof err) != 0) {
            fprintf(stderr, "nfsscope: %s\n", err);
            status = 1;
        }
        ri.two_point = ns_two_point_result(peer.tp);
    }
    if (ri.partial) fprintf(stderr, "nfsscope: %s: %s\n", ri.source, ri.partial_reason);
    if (cs.live) print_counters(&cs);
    /* With the log on stdout, the report goes only where -o says. */
    bool report = !(log == stdout && !o.output);
    if (report && o.format == FORMAT_JSON) ns_report_json(out, a, &ri);
    else if (report) ns_report_text(out, a, &ri);

    if (outputs_finish(a, &ri)) status = 1;
    /* --fail-on looks at every finding, whatever --min-severity and the narrowing show */
    if (status == 0 && fail_on_met(a, o.fail_on, o.fail_on_severity)) status = 3;
    if (out != stdout && (fflush(out) != 0 || ferror(out))) {
        fprintf(stderr, "nfsscope: %s: %s\n", o.output, strerror(errno));
        status = 1;
    }
    if ((out == stdout || log == stdout) && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "nfsscope: standard output: %s\n", strerror(errno));
        status = 1;
    }
    if (log && log != stdout && (fflush(log) != 0 || ferror(log))) {
        fprintf(stderr, "nfsscope: %s: %s\n", o.txn_log, strerror(errno));
        status = 1;
    }
    if (out != stdout) fclose(out);
    if (log && log != stdout) fclose(log);
    ns_analyzer_free(a);
    ns_report_programs_free(pg);
    ns_report_filter_free(flt);
    peer_close(&peer);
    g_capture = NULL;
    if (capture_close(p, err, sizeof err) != 0) {
        fprintf(stderr, "nfsscope: -w %s\n", err);
        status = 1;
    }
    options_free(&o);
    return status;
}
