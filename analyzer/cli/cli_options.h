/* Command line of the nfsscope program. */
#ifndef NFSSCOPE_CLI_OPTIONS_H
#define NFSSCOPE_CLI_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/report.h"
#include <stdint.h>

enum out_format { FORMAT_TEXT, FORMAT_JSON };

/* Live capture without a filter expression: NFS, portmap/rpcbind, mountd on
 * its IANA port, and every IP fragment (large UDP replies arrive as
 * fragments whose later pieces carry no ports). It misses MOUNT, NLM and NSM
 * on dynamic ports and NFSv4.0 callbacks to the client's own port: give a
 * filter naming those ports (rpcinfo -p SERVER tells them). */
#define NS_DEFAULT_FILTER \
    "port 2049 or port 111 or port 20048 or (ip[6:2] & 0x3fff != 0) or (ip6 and ip6[6] == 44)"
/* -B default in KiB: see capture.c for why not libpcap's 2 MiB. */
#define NS_DEFAULT_BUFFER_KIB 32768

struct options {
    const char *read_file;     /* -r */
    const char *interface;     /* -i */
    char *filter;              /* BPF expression from the remaining arguments */
    enum out_format format;
    const char *txn_log;       /* --txn-log */
    const char *output;        /* -o: report file (NULL or "-": stdout) */
    const char *user;          /* -Z: user to switch to once the capture is open */
    uint64_t memcap;
    int64_t call_timeout_ns;
    uint16_t rpc_ports[16];    /* --rpc-port: more TCP ports carrying RPC (ns_config.rpc_ports) */
    unsigned n_rpc_ports;
    long long count;           /* -c: stop after this many frames (0 = all) */
    int snaplen;               /* -s for live capture */
    int progress;              /* -1 auto, 0 off, 1 on */
    char *fail_on;             /* --fail-on's kinds, checked and in upper case ("" if it named only severities) */
    int fail_on_severity;      /* --fail-on's least severe severity named: that or worse fails (-1: none) */
    uint8_t min_severity;      /* --min-severity: findings shown in the report and the screen (enum ns_severity) */
    bool all_findings;         /* --all-findings: the text report lists every finding (no folding) */
    uint32_t storm_count;      /* --storm-count (0 = default) */
    int64_t storm_window_ns;   /* --storm-window */
    int64_t grace_period_ns;   /* --grace-period */
    double rto_factor;         /* --rto-factor (0 = default) */
    int64_t udp_timeo_ns;      /* --udp-timeo */
    uint32_t udp_retrans;      /* --udp-retrans */
    /* live capture and the screen */
    int buffer_kib;            /* -B: capture buffer in KiB (0 = nfsscope's default) */
    const char *write_file;    /* -w: also save what was captured */
    uint64_t rotate_bytes;     /* -C: start a new -w file past this size (0 = never) */
    int rotate_files;          /* -W: keep at most this many -w files (0 = no limit) */
    int screen;                /* -1 auto (-i on a terminal), 0 --batch, 1 --tui */
    double speed;              /* --speed N: replay at N x capture timing; 0 = as fast as possible (max) */
    int64_t interval_ns;       /* --interval: summary line period without the screen (default 10 s) */
    struct ns_report_narrow narrow; /* --client --server --session --clientid --from --to */
    /* tcpdump habits */
    int verbosity;             /* -q: -1 (summary and findings), 0 default, -v: 1 (more per table) */
    /* pictures and monitoring (cli_outputs.c) */
    const char *html;          /* --html: the post-mortem page */
    const char *metrics;       /* --metrics HOST:PORT: serve GET /metrics while capturing */
    const char *metrics_file;  /* --metrics-file: the exposition written at the end */
    const char *peer;          /* --peer: the same traffic captured near the server (cli_peer.c) */
};

/* Parse argv. Returns 0 to run, 1 when help/version was printed (exit 0),
 * -1 on a usage error (message already printed). */
int options_parse(int argc, char **argv, struct options *o);
void options_free(struct options *o);
/* Two outputs naming the same file ('-' = standard output, or the same
 * inode once opened) would overwrite each other: true with a one-line
 * reason in err. a, b: "-o", "--txn-log"...; paths may be NULL. */
bool options_same_output(const char *a, const char *pa, const char *b, const char *pb, char *err, size_t errlen);
/* "64M" -> bytes; false if not a size. */
bool parse_size(const char *s, uint64_t *out);

#endif
