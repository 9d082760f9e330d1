#include "cli_options.h"

#include "cli_finding_kinds.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: nfsscope -r FILE [options] [BPF expression]\n"
    "       nfsscope -i INTERFACE [options] [BPF expression]\n"
    "\n"
    "Decode and summarise the NFS traffic of a capture: RPC calls and replies,\n"
    "per-operation latency, NFS status, connections, and what could not be analysed.\n"
    "\n"
    "  -r FILE               read a pcap or pcapng file ('-' = standard input); one -r only:\n"
    "                        merge files first (mergecap -w - a b | nfsscope -r -)\n"
    "  -i INTERFACE          capture live from INTERFACE ('any' = all); the report is printed\n"
    "                        when stopped by Ctrl-C, SIGTERM or SIGHUP (frames already\n"
    "                        captured are still analysed) or after -c\n"
    "  --peer FILE           with -r (taken near the client): FILE, the same traffic captured\n"
    "                        near the server; adds the two-point analysis: latency split into\n"
    "                        server and network time, clock offset, frames lost between the\n"
    "                        captures (doc/two-points.md)\n"
    "  -c COUNT              stop after COUNT frames\n"
    "  -s SNAPLEN            live capture: bytes kept per frame (default 262144)\n"
    "  -B KIB                live capture: kernel buffer in KiB (default 32768; libpcap's\n"
    "                        2 MiB drops frames within milliseconds of a 10 Gbit/s burst)\n"
    "  -w FILE               also save every captured frame to FILE (pcap, ns timestamps)\n"
    "  -C MB                 with -w: start a new file once one is past MB million bytes:\n"
    "                        FILE, FILE1, FILE2... (as tcpdump)\n"
    "  -W N                  with -C: keep N files, FILE0..FILE<N-1>, overwritten in turn\n"
    "  --batch               no screen: a summary line on stderr every --interval, then\n"
    "                        the report (default unless -i with a terminal; with -r the\n"
    "                        lines appear only with --batch)\n"
    "  --tui                 the live screen (default for -i on a terminal)\n"
    "  --interval SEC        summary line period: wall time for -i, capture time for -r\n"
    "                        (default 10)\n"
    "  --speed N|max         the screen replaying -r: N x the capture's pace (default 1)\n"
    "  -o FILE               write the report to FILE instead of standard output ('-' = stdout)\n"
    "  -n                    accepted for tcpdump's sake: nfsscope never resolves names\n"
    "  -q                    shorter report: capture, RPC totals, findings, what was not analysed\n"
    "  -v                    more detail: every operation's p90 and p99.9 and min latency\n"
    "  -Z USER               once the capture and the output files are open, switch to USER;\n"
    "                        as root, live capture switches to 'tcpdump' (else 'nobody') by\n"
    "                        default (-Z root stays root)\n"
    "  --format text|json    report format (default text; json keys: doc/json-report.md)\n"
    "  --txn-log FILE        write one JSON line per RPC transaction to FILE ('-' = stdout;\n"
    "                        the report then goes only to -o FILE, if given)\n"
    "  --memcap SIZE         memory for all tables, with K/M/G suffix (default 512M)\n"
    "  --call-timeout SEC    give up on a call unanswered for SEC seconds of capture time (default 120)\n"
    "  --rpc-port PORT[,PORT...]\n"
    "                        TCP ports that carry RPC besides 2049, 111 and 20048 (NLM, NSM,\n"
    "                        callbacks): a connection there picked up mid-stream is searched\n"
    "                        for RPC for its whole life (up to 16 ports; repeatable)\n"
    "  --storm-count N       N errors of one kind on one session/client make a storm (default 20)\n"
    "  --storm-window SEC    ... within SEC seconds (default 10)\n"
    "  --grace-period SEC    NFS4ERR_GRACE for longer than SEC seconds is GRACE_STUCK (default 90)\n"
    "  --rto-factor F        RTO_INFLATED: a UDP resend waited more than F x the RTO (default 8)\n"
    "  --udp-timeo SEC       UDP client's initial retransmit timeout, as mount -o timeo (default 1.1)\n"
    "  --udp-retrans N       UDP resends before a major timeout, as mount -o retrans (default 3)\n"
    "  --client ADDR         report only the RPCs of this client address (any port)\n"
    "  --server ADDR[:PORT]  ... of this server ([V6]:PORT for IPv6 with a port)\n"
    "  --session HEX         ... of this NFSv4.1 session (its id or a prefix of 8+ hex digits)\n"
    "  --clientid HEX        ... of this NFSv4 client ID (16 hex digits, as the report prints it)\n"
    "  --from TIME           ... from TIME: seconds from the capture's start (30, +30), a UTC\n"
    "                        time (2026-12-02 10:00:01.5, 2026-12-02 10:00, 2026-12-02)\n"
    "                        or a time of day (10:00:01)\n"
    "  --to TIME             ... up to TIME (same forms); these narrow the report after\n"
    "                        decoding, which a BPF filter cannot (a session spans connections)\n"
    "  --fail-on KIND|SEVERITY[,...]\n"
    "                        exit with status 3 when a finding of one of these kinds, or of\n"
    "                        this severity or worse, exists: --fail-on error is any error or\n"
    "                        critical finding (case-insensitive; kinds in the man page)\n"
    "  --min-severity info|warning|error|critical\n"
    "                        findings in the report (text and JSON) and the screen: this\n"
    "                        severity or worse (default info, all); the Findings heading\n"
    "                        counts those left out\n"
    "  --all-findings        the text report lists every finding (as -v does); by default more\n"
    "                        than 3 of one kind and severity fold into one entry with the\n"
    "                        worst 3\n"
    "  --html FILE           also write the post-mortem page with charts (doc/html-report.md)\n"
    "  --metrics HOST:PORT   with -i: serve Prometheus metrics at http://HOST:PORT/metrics\n"
    "  --metrics-file FILE   also write the metrics to FILE at the end (doc/metrics.md)\n"
    "  --progress / --no-progress\n"
    "                        progress on stderr (default: only when stderr is a terminal)\n"
    "  -h, --help            this help\n"
    "  --version             print the version\n"
    "\n"
    "Live capture without a BPF expression uses:\n"
    "  " NS_DEFAULT_FILTER "\n"
    "(NFS, portmap/rpcbind, mountd on 20048, IP fragments). It misses MOUNT, NLM and\n"
    "NSM on other ports and NFSv4.0 callbacks: name those ports (rpcinfo -p SERVER).\n"
    "On exit a live capture prints tcpdump's counters (captured, dropped by kernel,\n"
    "dropped by interface) on stderr; with drops the report's counts are lower bounds.\n"
    "\n"
    "Exit status: 0 success, 1 error (nothing analysed), 2 the capture was cut off or\n"
    "damaged (the report covers what came before the damage), 3 a --fail-on finding.\n";

bool parse_size(const char *s, uint64_t *out)
{
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || s[0] == '-') return false;
    unsigned shift = 0;
    switch (*end) {
    case 0: break;
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: return false;
    }
    if (*end || v > (UINT64_MAX >> shift)) return false;
    *out = (uint64_t)v << shift;
    return true;
}

enum { OPT_FORMAT = 256, OPT_FAILON, OPT_TXNLOG, OPT_MEMCAP, OPT_TIMEOUT, OPT_PROGRESS, OPT_NOPROGRESS, OPT_VERSION,
       OPT_STORMCOUNT, OPT_STORMWINDOW, OPT_GRACE, OPT_RTOFACTOR, OPT_UDPTIMEO, OPT_UDPRETRANS, OPT_TUI, OPT_BATCH,
       OPT_SPEED, OPT_INTERVAL, OPT_CLIENT, OPT_SERVER, OPT_SESSION, OPT_CLIENTID, OPT_FROM, OPT_TO,
       OPT_HTML, OPT_METRICS, OPT_METRICSFILE, OPT_RPCPORT, OPT_MINSEV, OPT_ALLFINDINGS, OPT_PEER };

static const char *narrow_name(int c)
{
    return c == OPT_CLIENT ? "client" : c == OPT_SERVER ? "server" : c == OPT_SESSION ? "session"
         : c == OPT_CLIENTID ? "clientid" : c == OPT_FROM ? "from" : "to";
}

/* One of the narrowing options into spec; false with the reason. */
static bool narrow_option(int c, const char *v, struct ns_report_narrow *n, char *err, size_t errlen)
{
    switch (c) {
    case OPT_CLIENT: n->client = v; return ns_report_parse_addr(v, false, err, errlen);
    case OPT_SERVER: n->server = v; return ns_report_parse_addr(v, true, err, errlen);
    case OPT_SESSION: n->session = v; return ns_report_parse_hex(v, 8, 32, err, errlen);
    case OPT_CLIENTID: n->clientid = v; return ns_report_parse_hex(v, 16, 16, err, errlen);
    case OPT_FROM: n->from_text = v; return ns_report_parse_time(v, &n->from, err, errlen);
    default: n->to_text = v; return ns_report_parse_time(v, &n->to, err, errlen);
    }
}

int options_parse(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, OPT_FORMAT},
        {"txn-log", required_argument, NULL, OPT_TXNLOG},
        {"fail-on", required_argument, NULL, OPT_FAILON},
        {"min-severity", required_argument, NULL, OPT_MINSEV},
        {"all-findings", no_argument, NULL, OPT_ALLFINDINGS},
        {"memcap", required_argument, NULL, OPT_MEMCAP},
        {"rpc-port", required_argument, NULL, OPT_RPCPORT},
        {"call-timeout", required_argument, NULL, OPT_TIMEOUT},
        {"storm-count", required_argument, NULL, OPT_STORMCOUNT},
        {"storm-window", required_argument, NULL, OPT_STORMWINDOW},
        {"grace-period", required_argument, NULL, OPT_GRACE},
        {"rto-factor", required_argument, NULL, OPT_RTOFACTOR},
        {"udp-timeo", required_argument, NULL, OPT_UDPTIMEO},
        {"udp-retrans", required_argument, NULL, OPT_UDPRETRANS},
        {"tui", no_argument, NULL, OPT_TUI},
        {"batch", no_argument, NULL, OPT_BATCH},
        {"speed", required_argument, NULL, OPT_SPEED},
        {"interval", required_argument, NULL, OPT_INTERVAL},
        {"client", required_argument, NULL, OPT_CLIENT},
        {"server", required_argument, NULL, OPT_SERVER},
        {"session", required_argument, NULL, OPT_SESSION},
        {"clientid", required_argument, NULL, OPT_CLIENTID},
        {"from", required_argument, NULL, OPT_FROM},
        {"to", required_argument, NULL, OPT_TO},
        {"html", required_argument, NULL, OPT_HTML},
        {"metrics", required_argument, NULL, OPT_METRICS},
        {"metrics-file", required_argument, NULL, OPT_METRICSFILE},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"no-progress", no_argument, NULL, OPT_NOPROGRESS},
        {"peer", required_argument, NULL, OPT_PEER},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->progress = -1;
    o->snaplen = 262144;
    o->screen = -1;
    o->speed = 1;
    o->interval_ns = 10ll * 1000000000ll;
    o->fail_on_severity = -1;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "r:i:c:s:o:hZ:B:w:C:W:nvq", longopts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'r':
            if (o->read_file) {
                fprintf(stderr, "nfsscope: -r given twice (%s, %s): nfsscope reads one capture; merge them in time order "
                                "first: mergecap -w - FILES | nfsscope -r -\n", o->read_file, optarg);
                return -1;
            }
            o->read_file = optarg;
            break;
        case 'n': break; /* names are never resolved */
        case 'v': o->verbosity = 1; break;
        case 'q': o->verbosity = -1; break;
        case 'i': o->interface = optarg; break;
        case 'o': o->output = optarg; break;
        case 'Z': o->user = optarg; break;
        case 'c':
            o->count = strtoll(optarg, &end, 10);
            if (*end || o->count <= 0) { fprintf(stderr, "nfsscope: -c: not a positive count: %s\n", optarg); return -1; }
            break;
        case 's':
            o->snaplen = (int)strtol(optarg, &end, 10);
            if (*end || o->snaplen <= 0) { fprintf(stderr, "nfsscope: -s: not a snapshot length: %s\n", optarg); return -1; }
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "text") == 0) o->format = FORMAT_TEXT;
            else if (strcmp(optarg, "json") == 0) o->format = FORMAT_JSON;
            else { fprintf(stderr, "nfsscope: --format: expected text or json, got %s\n", optarg); return -1; }
            break;
        case OPT_TXNLOG: o->txn_log = optarg; break;
        case OPT_FAILON: {
            char why[1024];
            free(o->fail_on);
            o->fail_on = strdup(optarg);
            if (!o->fail_on) return -1;
            if (!finding_kinds_check(o->fail_on, &o->fail_on_severity, why, sizeof why)) {
                fprintf(stderr, "nfsscope: %s\n", why);
                return -1;
            }
            break;
        }
        case OPT_MINSEV: {
            int sev = severity_parse(optarg, strlen(optarg));
            if (sev < 0) {
                fprintf(stderr, "nfsscope: --min-severity: expected info, warning, error or critical, got %s\n", optarg);
                return -1;
            }
            o->min_severity = (uint8_t)sev;
            break;
        }
        case OPT_ALLFINDINGS: o->all_findings = true; break;
        case OPT_MEMCAP:
            if (!parse_size(optarg, &o->memcap)) {
                fprintf(stderr, "nfsscope: --memcap: expected a size with K/M/G/T suffix (e.g. 64M), got %s\n", optarg);
                return -1;
            }
            if (o->memcap < (1u << 20) || o->memcap > (1ull << 40)) {
                fprintf(stderr, "nfsscope: --memcap: expected a size from 1M to 1T, got %s\n", optarg);
                return -1;
            }
            break;
        case OPT_RPCPORT:
            for (const char *q = optarg;;) {
                errno = 0;
                unsigned long v = strtoul(q, &end, 10);
                if (errno || end == q || *q == '-' || v < 1 || v > 65535 || (*end && *end != ',')) {
                    fprintf(stderr, "nfsscope: --rpc-port: expected ports from 1 to 65535 separated by commas, got %s\n", optarg);
                    return -1;
                }
                if (o->n_rpc_ports == sizeof o->rpc_ports / sizeof o->rpc_ports[0]) {
                    fprintf(stderr, "nfsscope: --rpc-port: at most %zu ports\n", sizeof o->rpc_ports / sizeof o->rpc_ports[0]);
                    return -1;
                }
                o->rpc_ports[o->n_rpc_ports++] = (uint16_t)v;
                if (!*end) break;
                q = end + 1;
            }
            break;
        case OPT_TIMEOUT: {
            double s = strtod(optarg, &end);
            if (*end || !(s > 0) || s > 1e6) { fprintf(stderr, "nfsscope: --call-timeout: expected seconds, got %s\n", optarg); return -1; }
            o->call_timeout_ns = (int64_t)(s * 1e9);
            break;
        }
        case OPT_STORMCOUNT: {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || optarg[0] == '-' || v < 2 || v > 1000000) { fprintf(stderr, "nfsscope: --storm-count: expected a count from 2 to 1000000, got %s\n", optarg); return -1; }
            o->storm_count = (uint32_t)v;
            break;
        }
        case OPT_STORMWINDOW:
        case OPT_GRACE: {
            double s = strtod(optarg, &end);
            const char *n = c == OPT_GRACE ? "--grace-period" : "--storm-window";
            if (*end || !(s > 0) || s > 1e6) { fprintf(stderr, "nfsscope: %s: expected seconds, got %s\n", n, optarg); return -1; }
            if (c == OPT_GRACE) o->grace_period_ns = (int64_t)(s * 1e9); else o->storm_window_ns = (int64_t)(s * 1e9);
            break;
        }
        case OPT_RTOFACTOR: case OPT_UDPTIMEO: {
            double v = strtod(optarg, &end);
            if (*end || !(v > 0) || v > 1e6) { fprintf(stderr, "nfsscope: %s: expected a positive number, got %s\n", c == OPT_RTOFACTOR ? "--rto-factor" : "--udp-timeo", optarg); return -1; }
            if (c == OPT_RTOFACTOR) o->rto_factor = v; else o->udp_timeo_ns = (int64_t)(v * 1e9);
            break;
        }
        case OPT_UDPRETRANS: {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || optarg[0] == '-' || v < 1 || v > 30) { fprintf(stderr, "nfsscope: --udp-retrans: expected a count from 1 to 30, got %s\n", optarg); return -1; }
            o->udp_retrans = (uint32_t)v;
            break;
        }
        case 'B': {
            long v = strtol(optarg, &end, 10);
            if (*end || v < 64 || v > 4 * 1024 * 1024) { fprintf(stderr, "nfsscope: -B: expected a buffer size in KiB from 64 to 4194304, got %s\n", optarg); return -1; }
            o->buffer_kib = (int)v;
            break;
        }
        case 'w': o->write_file = optarg; break;
        case 'C': {
            double mb = strtod(optarg, &end);
            if (*end || !(mb > 0) || mb > 1e7) { fprintf(stderr, "nfsscope: -C: expected a file size in millions of bytes, got %s\n", optarg); return -1; }
            o->rotate_bytes = (uint64_t)(mb * 1e6);
            break;
        }
        case 'W': {
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 1000000) { fprintf(stderr, "nfsscope: -W: expected a file count, got %s\n", optarg); return -1; }
            o->rotate_files = (int)v;
            break;
        }
        case OPT_TUI: o->screen = 1; break;
        case OPT_BATCH: o->screen = 0; break;
        case OPT_SPEED:
            if (strcmp(optarg, "max") == 0) o->speed = 0;
            else {
                o->speed = strtod(optarg, &end);
                if (*end || !(o->speed > 0) || o->speed > 1e6) { fprintf(stderr, "nfsscope: --speed: expected a factor or 'max', got %s\n", optarg); return -1; }
            }
            break;
        case OPT_INTERVAL: {
            double sec = strtod(optarg, &end);
            if (*end || !(sec >= 0.1) || sec > 86400) { fprintf(stderr, "nfsscope: --interval: expected seconds (0.1 or more), got %s\n", optarg); return -1; }
            o->interval_ns = (int64_t)(sec * 1e9);
            break;
        }
        case OPT_CLIENT: case OPT_SERVER: case OPT_SESSION: case OPT_CLIENTID: case OPT_FROM: case OPT_TO: {
            char why[512];
            if (narrow_option(c, optarg, &o->narrow, why, sizeof why)) break;
            fprintf(stderr, "nfsscope: --%s: %s\n", narrow_name(c), why);
            return -1;
        }
        case OPT_HTML: o->html = optarg; break;
        case OPT_PEER: o->peer = optarg; break;
        case OPT_METRICS: o->metrics = optarg; break;
        case OPT_METRICSFILE: o->metrics_file = optarg; break;
        case OPT_PROGRESS: o->progress = 1; break;
        case OPT_NOPROGRESS: o->progress = 0; break;
        case 'h': fputs(usage, stdout); return 1;
        case OPT_VERSION: puts("nfsscope " NFSSCOPE_VERSION); return 1;
        default:
            if (optopt && optopt < 256) fprintf(stderr, "nfsscope: option -%c: unknown or missing its argument\n", optopt);
            else fprintf(stderr, "nfsscope: unknown option %s\n", argv[optind - 1]);
            fputs("try 'nfsscope --help'\n", stderr);
            return -1;
        }
    }
    if (!o->read_file == !o->interface) {
        fprintf(stderr, "nfsscope: give exactly one of -r FILE or -i INTERFACE (try 'nfsscope --help')\n");
        return -1;
    }
    if (o->peer && (!o->read_file || !strcmp(o->read_file, "-") || !strcmp(o->peer, "-"))) {
        fprintf(stderr, "nfsscope: --peer FILE goes with -r FILE: two capture files, not standard input\n");
        return -1;
    }
    const struct ns_report_narrow *nw = &o->narrow;
    if (nw->from.kind && nw->from.kind == nw->to.kind && nw->from.ns > nw->to.ns) {
        fprintf(stderr, "nfsscope: --from %s is after --to %s\n", nw->from_text, nw->to_text);
        return -1;
    }
    if (o->verbosity && o->format == FORMAT_JSON) {
        fprintf(stderr, "nfsscope: -v and -q change the text report only; the JSON report has every field\n");
        return -1;
    }
    char why[1024];
    if (options_same_output("-o", o->output, "--txn-log", o->txn_log, why, sizeof why) ||
        options_same_output("-o", o->output, "-w", o->write_file, why, sizeof why) ||
        options_same_output("--txn-log", o->txn_log, "-w", o->write_file, why, sizeof why) ||
        options_same_output("-r", o->read_file, "-o", o->output, why, sizeof why) ||
        options_same_output("-r", o->read_file, "--txn-log", o->txn_log, why, sizeof why) ||
        options_same_output("-r", o->read_file, "-w", o->write_file, why, sizeof why)) {
        fprintf(stderr, "nfsscope: %s\n", why);
        return -1;
    }
    if (optind < argc) { /* the BPF expression, words joined by spaces like tcpdump */
        size_t len = 1;
        for (int i = optind; i < argc; i++) len += strlen(argv[i]) + 1;
        o->filter = calloc(1, len);
        if (!o->filter) return -1;
        for (int i = optind; i < argc; i++) {
            if (i > optind) strcat(o->filter, " ");
            strcat(o->filter, argv[i]);
        }
    }
    return 0;
}

/* Same file: the same name, or an existing file with the same inode. Only
 * the report may share standard output (with --txn-log -, the report goes
 * to -o only, so "-o - --txn-log -" is a clash too). "-r -" reads stdin and
 * clashes with nothing. */
bool options_same_output(const char *a, const char *pa, const char *b, const char *pb, char *err, size_t errlen)
{
    if (!pa || !pb) return false;
    bool reads = strcmp(a, "-r") == 0;
    if (strcmp(pa, "-") == 0 || strcmp(pb, "-") == 0) {
        if (reads || strcmp(pa, pb) != 0) return false;
        snprintf(err, errlen, "%s and %s both write to standard output: give one of them a file", a, b);
        return true;
    }
    struct stat sa, sb;
    bool same = strcmp(pa, pb) == 0 ||
                (stat(pa, &sa) == 0 && stat(pb, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
    if (!same) return false;
    if (reads) snprintf(err, errlen, "%s %s would overwrite the capture being read", b, pb);
    else snprintf(err, errlen, "%s and %s name the same file (%s): one would overwrite the other", a, b, pb);
    return true;
}

void options_free(struct options *o)
{
    free(o->filter);
    free(o->fail_on);
}
