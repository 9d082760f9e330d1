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

#include "cli_options.h"
#include "cli_privs.h"
#include "cli_progress.h"
#include "cli_report.h"
#include "cli_txnlog.h"
#include "nfsscope/nfsscope.h"

static pcap_t *g_live; /* for the signal handler only */

static void on_signal(int sig)
{
    (void)sig;
    if (g_live) pcap_breakloop(g_live);
}

static pcap_t *open_file(const char *path, char *err, size_t errlen)
{
    char ebuf[PCAP_ERRBUF_SIZE] = "";
    if (strcmp(path, "-") != 0) {
        struct stat sb;
        if (stat(path, &sb) != 0) { snprintf(err, errlen, "%s", strerror(errno)); return NULL; }
        if (S_ISDIR(sb.st_mode)) { snprintf(err, errlen, "is a directory"); return NULL; }
        if (sb.st_size == 0) { snprintf(err, errlen, "empty file, not a capture"); return NULL; }
    }
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    if (!p) {
        /* libpcap's messages name the file already in some cases; keep the reason. */
        const char *reason = ebuf;
        if (strstr(ebuf, "unknown file format") || strstr(ebuf, "bad dump file format"))
            reason = "not a pcap or pcapng capture file";
        else if (strstr(ebuf, "truncated dump file") || strstr(ebuf, "truncated"))
            reason = "capture file header is cut off";
        snprintf(err, errlen, "%s", reason);
    }
    return p;
}

static pcap_t *open_live(const struct options *o, char *err, size_t errlen)
{
    char ebuf[PCAP_ERRBUF_SIZE] = "";
    pcap_t *p = pcap_create(o->interface, ebuf);
    if (!p) { snprintf(err, errlen, "%s", ebuf); return NULL; }
    pcap_set_snaplen(p, o->snaplen);
    pcap_set_promisc(p, 0);
    pcap_set_timeout(p, 200);
    pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO);
    int rc = pcap_activate(p);
    if (rc < 0) {
        snprintf(err, errlen, "%s", rc == PCAP_ERROR_NO_SUCH_DEVICE ? "no such interface"
                                    : rc == PCAP_ERROR_PERM_DENIED ? "permission denied (capturing needs root or CAP_NET_RAW)"
                                    : pcap_geterr(p));
        pcap_close(p);
        return NULL;
    }
    return p;
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
    pcap_t *p = o.read_file ? open_file(o.read_file, err, sizeof err) : open_live(&o, err, sizeof err);
    if (!p) {
        fprintf(stderr, "nfsscope: %s: %s\n", strcmp(src, "-") ? src : "standard input", err);
        options_free(&o);
        return 1;
    }
    int dlt = pcap_datalink(p);
    if (!ns_linktype_supported(dlt)) {
        const char *name = pcap_datalink_val_to_name(dlt);
        fprintf(stderr, "nfsscope: %s: unsupported link type %s (%d)%s\n", src, name ? name : "unknown", dlt,
                "; supported: EN10MB, LINUX_SLL, LINUX_SLL2, RAW, NULL, LOOP");
        pcap_close(p);
        options_free(&o);
        return 1;
    }
    if (o.filter) {
        struct bpf_program prog;
        if (pcap_compile(p, &prog, o.filter, 1, PCAP_NETMASK_UNKNOWN) != 0 || pcap_setfilter(p, &prog) != 0) {
            fprintf(stderr, "nfsscope: filter '%s': %s\n", o.filter, pcap_geterr(p));
            pcap_close(p);
            options_free(&o);
            return 1;
        }
        pcap_freecode(&prog);
    }
    FILE *out = stdout, *log = NULL;
    if (o.output && !(out = fopen(o.output, "w"))) {
        fprintf(stderr, "nfsscope: %s: %s\n", o.output, strerror(errno));
        pcap_close(p);
        options_free(&o);
        return 1;
    }
    if (o.txn_log) {
        log = strcmp(o.txn_log, "-") == 0 ? stdout : fopen(o.txn_log, "w");
        if (!log) {
            fprintf(stderr, "nfsscope: %s: %s\n", o.txn_log, strerror(errno));
            pcap_close(p);
            options_free(&o);
            return 1;
        }
    }
    /* Everything nfsscope will write is open: give up root (like tcpdump). */
    if (privs_drop(&pv, err, sizeof err) != 0) {
        fprintf(stderr, "nfsscope: %s\n", err);
        pcap_close(p);
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
        pcap_close(p);
        options_free(&o);
        return 1;
    }
    struct txnlog tl = {log, a};
    if (log) ns_analyzer_on_txn(a, txnlog_write, &tl);

    struct report_info ri = {.source = strcmp(src, "-") ? src : "standard input", .live = o.interface != NULL};
    bool progress = o.read_file && (o.progress == 1 || (o.progress < 0 && isatty(STDERR_FILENO)));
    struct progress pr;
    progress_start(&pr, progress ? pcap_file(p) : NULL, o.read_file);
    if (o.interface) {
        g_live = p;
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
    }

    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t n = 0;
    int r;
    while ((r = pcap_next_ex(p, &h, &data)) >= 0) {
        if (r == 0) continue; /* live timeout */
        struct ns_frame f = {++n, (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec, h->caplen, h->len, dlt, data};
        ns_analyzer_feed(a, &f);
        if (progress && (n & 4095) == 0) progress_tick(&pr, n);
        if (o.count && (long long)n >= o.count) break;
    }
    if (r == PCAP_ERROR) {
        ri.partial = true;
        snprintf(ri.partial_reason, sizeof ri.partial_reason, "capture cut off or damaged after frame %llu: %s",
                 (unsigned long long)n, pcap_geterr(p));
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
    pcap_close(p);
    options_free(&o);
    return status;
}
