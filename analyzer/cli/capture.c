/* Capture source: pcap file or live interface (see capture.h). */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture_save.h"
#include "read_ahead.h"

/* Read timeout of the live capture: how long the kernel keeps a partly
 * filled ring block (TPACKET_V3) from us, hence how long draining waits. */
#define READ_TIMEOUT_MS 200
/* The handle is non-blocking and we poll ourselves: libpcap's own wait has
 * no timeout on TPACKET_V3 when nothing arrives, so an idle link would
 * never let the loop tick or see a stop. */
#define POLL_MS 100
/* Draining never takes longer than this, whatever keeps arriving. */
#define DRAIN_MAX_NS 2000000000ll

struct capture {
    pcap_t *p;
    bool live;
    int dlt;
    int pipe_fd;                 /* stdin or a FIFO: made non-blocking on stop, else -1 */
    uint64_t frames;             /* frames read: a file's frame number (tshark's), filtered out or not */
    uint64_t delivered;          /* frames handed out (past the filter) */
    struct bpf_program offline;  /* a file's filter, applied here so frames keep the file's numbers */
    bool has_offline;
    volatile sig_atomic_t stop;
    bool draining, ended;
    int64_t stop_wall_ns;        /* frames stamped after the stop are not handed out */
    int64_t quiet_after_ns;      /* monotonic: the kernel has handed over every frame before the stop */
    int64_t drain_deadline_ns;   /* monotonic */
    int64_t start_ns, end_ns;    /* wall clock */
    struct capture_save *save;
    struct read_ahead *ahead;    /* a regular file: read in a thread, started at the first frame */
    void *file_buf;              /* the file's stdio buffer: freed after pcap_close */
    bool save_warned;
    struct capture_stats last;   /* the latest pcap_stats that answered */
    char filter[1024];
    int buffer_kib;
    char source[256];
    char error[512];
};

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A compressed file, by its magic number: the command that decompresses it, or NULL. */
static const char *decompressor(const char *path)
{
    unsigned char m[4] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t n = fread(m, 1, sizeof m, f);
    fclose(f);
    if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b) return "zcat";
    if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) return "zstdcat";
    if (n >= 3 && m[0] == 'B' && m[1] == 'Z' && m[2] == 'h') return "bzcat";
    if (n >= 4 && m[0] == 0xfd && m[1] == '7' && m[2] == 'z' && m[3] == 'X') return "xzcat";
    return NULL;
}

/* A capture format libpcap does not read, by its magic: its name, or NULL.
 * Wireshark's editcap converts them (editcap -F pcap IN OUT). */
static const char *other_format(const char *path)
{
    static const struct { const char *magic; size_t len; const char *name; } known[] = {
        {"snoop\0\0\0", 8, "a Solaris snoop capture"},
        {"btsnoop\0", 8, "a Bluetooth btsnoop capture"},
        {"RTSS", 4, "a Microsoft Network Monitor 1 capture"},
        {"GMBU", 4, "a Microsoft Network Monitor 2 capture"},
        {"TRSNIFF data    \x1a", 17, "a Sniffer (DOS) capture"},
        {"ObserverPktBuffer", 17, "a Network Instruments Observer capture"},
        {"\x54\x52\x00\x64\x00", 5, "an HP-UX nettl capture"},
    };
    unsigned char m[32] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t n = fread(m, 1, sizeof m, f);
    fclose(f);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (n >= known[i].len && memcmp(m, known[i].magic, known[i].len) == 0) return known[i].name;
    return NULL;
}

bool capture_file_unfit(const char *path, char *err, size_t errlen)
{
    if (strcmp(path, "-") == 0) return false;
    struct stat sb;
    if (stat(path, &sb) != 0) { snprintf(err, errlen, "%s", strerror(errno)); return true; }
    if (S_ISDIR(sb.st_mode)) { snprintf(err, errlen, "is a directory"); return true; }
    if (sb.st_size == 0 && S_ISREG(sb.st_mode)) { snprintf(err, errlen, "empty file, not a capture"); return true; }
    return false;
}

void capture_file_error(const char *path, const char *ebuf, char *err, size_t errlen)
{
    /* libpcap's messages name the file already in some cases; keep the
     * reason (the caller names the file). */
    const char *reason = ebuf;
    size_t pl = strlen(path);
    if (strncmp(ebuf, path, pl) == 0 && ebuf[pl] == ':' && ebuf[pl + 1] == ' ') reason = ebuf + pl + 2;
    const char *unpack = strcmp(path, "-") != 0 ? decompressor(path) : NULL;
    char hint[PCAP_ERRBUF_SIZE + 64];
    if (unpack) {
        snprintf(hint, sizeof hint, "compressed: try %s %s | nfsscope -r -", unpack, path);
        reason = hint;
    } else if ((strstr(ebuf, "unknown file format") || strstr(ebuf, "bad dump file format")) &&
               strcmp(path, "-") != 0 && other_format(path)) {
        snprintf(hint, sizeof hint, "%s, which libpcap does not read: convert it with editcap -F pcap %s OUT.pcap",
                 other_format(path), path);
        reason = hint;
    } else if (strstr(ebuf, "unknown file format") || strstr(ebuf, "bad dump file format"))
        reason = "not a pcap or pcapng capture file";
    else if (strstr(ebuf, "truncated dump file") || strstr(ebuf, "truncated"))
        reason = "capture file header is cut off";
    snprintf(err, errlen, "%s", reason);
}

static pcap_t *open_file(const char *path, int *pipe_fd, void **file_buf, char *err, size_t errlen)
{
    char ebuf[PCAP_ERRBUF_SIZE] = "";
    if (capture_file_unfit(path, err, errlen)) return NULL;
    pcap_t *p = strcmp(path, "-") ? read_ahead_open(path, ebuf, file_buf)
                                   : pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    if (!p) {
        capture_file_error(path, ebuf, err, errlen);
        return NULL;
    }
    struct stat sb;
    int fd = fileno(pcap_file(p));
    *pipe_fd = fstat(fd, &sb) == 0 && (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)) ? fd : -1;
    return p;
}

static pcap_t *open_live(struct capture *c, const struct options *o, char *err, size_t errlen)
{
    char ebuf[PCAP_ERRBUF_SIZE] = "";
    pcap_t *p = pcap_create(o->interface, ebuf);
    if (!p) { snprintf(err, errlen, "%s", ebuf); return NULL; }
    pcap_set_snaplen(p, o->snaplen);
    pcap_set_promisc(p, 0);
    pcap_set_timeout(p, READ_TIMEOUT_MS);
    pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO);
    /* libpcap's 2 MiB ring is ~1,400 full-size frames, or ~30 of the 64 KiB
     * frames GRO/TSO hand to the capture: a few milliseconds of one NFS
     * READ burst at 10 Gbit/s. 32 MiB rides out ~25 ms of line rate. */
    c->buffer_kib = o->buffer_kib ? o->buffer_kib : NS_DEFAULT_BUFFER_KIB;
    pcap_set_buffer_size(p, c->buffer_kib * 1024);
    /* No immediate mode, even on a terminal: nothing here is printed per
     * frame (the screen redraws once a second), and immediate mode wakes the
     * loop for every frame - measured with the screen: 0.55 CPU s per 100k
     * frames instead of 0.05, and drops at 289k frames/s. Frames wait at
     * most a ring block timeout; stopping drains partly filled blocks. */
    int rc = pcap_activate(p);
    if (rc >= 0 && pcap_setnonblock(p, 1, ebuf) != 0) {
        snprintf(err, errlen, "%s", ebuf);
        pcap_close(p);
        return NULL;
    }
    if (rc < 0) {
        snprintf(err, errlen, "%s", rc == PCAP_ERROR_NO_SUCH_DEVICE ? "no such interface"
                                    : rc == PCAP_ERROR_PERM_DENIED ? "permission denied (capturing needs root or CAP_NET_RAW)"
                                    : pcap_geterr(p));
        pcap_close(p);
        return NULL;
    }
    return p;
}

struct capture *capture_open(const struct options *o, char *err, size_t errlen)
{
    struct capture *c = calloc(1, sizeof *c);
    if (!c) { snprintf(err, errlen, "out of memory"); return NULL; }
    c->live = o->interface != NULL;
    c->pipe_fd = -1;
    const char *src = o->read_file ? o->read_file : o->interface;
    snprintf(c->source, sizeof c->source, "%s", strcmp(src, "-") ? src : "standard input");
    c->p = c->live ? open_live(c, o, err, errlen) : open_file(o->read_file, &c->pipe_fd, &c->file_buf, err, errlen);
    if (!c->p) { free(c); return NULL; }
    c->start_ns = clock_ns(CLOCK_REALTIME);
    c->dlt = pcap_datalink(c->p);
    if (!ns_linktype_supported(c->dlt)) {
        const char *name = pcap_datalink_val_to_name(c->dlt);
        snprintf(err, errlen, "unsupported link type %s (%d); supported: EN10MB, LINUX_SLL, LINUX_SLL2, RAW, NULL, LOOP",
                 name ? name : "unknown", c->dlt);
        capture_close(c, NULL, 0);
        return NULL;
    }
    const char *filter = o->filter ? o->filter : c->live ? NS_DEFAULT_FILTER : NULL;
    if (filter) {
        snprintf(c->filter, sizeof c->filter, "%s", filter);
        struct bpf_program prog;
        if (pcap_compile(c->p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) != 0 ||
            (c->live && pcap_setfilter(c->p, &prog) != 0)) {
            snprintf(err, errlen, "filter '%s': %s", filter, pcap_geterr(c->p));
            capture_close(c, NULL, 0);
            return NULL;
        }
        /* A file's frames are filtered as they are read, not by libpcap: a
         * frame keeps its number in the file, the one tshark and Wireshark
         * show, whatever the filter left out before it. A live capture is
         * filtered in the kernel and numbered as captured. */
        if (c->live) pcap_freecode(&prog);
        else { c->offline = prog; c->has_offline = true; }
    }
    if (o->write_file) {
        char serr[1300];
        c->save = save_open(c->p, o->write_file, o->rotate_bytes, o->rotate_files, serr, sizeof serr);
        if (!c->save) {
            snprintf(err, errlen, "-w %s", serr);
            capture_close(c, NULL, 0);
            return NULL;
        }
    }
    return c;
}

int capture_close(struct capture *c, char *err, size_t errlen)
{
    if (!c) return 0;
    int rc = save_close(c->save, err, errlen);
    read_ahead_stop(c->ahead); /* before the handle it reads goes */
    if (c->has_offline) pcap_freecode(&c->offline);
    if (c->p) pcap_close(c->p);
    free(c->file_buf);
    free(c);
    return rc;
}

int capture_datalink(const struct capture *c) { return c->dlt; }
uint64_t capture_delivered(const struct capture *c) { return c->delivered; }
const char *capture_filter(const struct capture *c) { return c->filter[0] ? c->filter : NULL; }
FILE *capture_file(const struct capture *c) { return c->live ? NULL : pcap_file(c->p); }
int capture_fd(const struct capture *c) { return c->live ? pcap_get_selectable_fd(c->p) : -1; }
const char *capture_error(const struct capture *c) { return c->error[0] ? c->error : NULL; }
bool capture_stopped(const struct capture *c) { return c->stop != 0; }

void capture_describe(const struct capture *c, char *buf, size_t len)
{
    const char *name = pcap_datalink_val_to_name(c->dlt);
    if (!c->live) {
        snprintf(buf, len, "reading %s, link-type %s", c->source, name ? name : "?");
        return;
    }
    snprintf(buf, len, "listening on %s, link-type %s, snapshot length %d bytes, buffer %d KiB, filter: %s",
             c->source, name ? name : "?", pcap_snapshot(c->p), c->buffer_kib, c->filter);
}

static void start_drain(struct capture *c)
{
    c->draining = true;
    c->stop_wall_ns = clock_ns(CLOCK_REALTIME);
    int64_t now = clock_ns(CLOCK_MONOTONIC);
    c->quiet_after_ns = now + (READ_TIMEOUT_MS + 50) * 1000000ll;
    c->drain_deadline_ns = now + DRAIN_MAX_NS;
}

static int end(struct capture *c)
{
    capture_end(c);
    return -1;
}

void capture_end(struct capture *c)
{
    if (!c->ended) {
        struct capture_stats s;
        capture_stats(c, &s); /* the final counters */
        c->ended = true;
        c->end_ns = clock_ns(CLOCK_REALTIME);
        c->last.end_ns = c->end_ns;
    }
}

/* Nothing ready on a live capture: wait for the descriptor up to ms. A
 * signal cuts the wait short (poll is never restarted). */
static void wait_ready(struct capture *c, int ms)
{
    struct pollfd pfd = {.fd = pcap_get_selectable_fd(c->p), .events = POLLIN};
    if (ms > 0) poll(&pfd, 1, ms);
}

/* A regular file is read ahead in a thread (once the filter is set, at the
 * first frame); pipes and interfaces directly, for their stop semantics. */
static int next_frame(struct capture *c, struct pcap_pkthdr **h, const u_char **data)
{
    if (!c->ahead && !c->live && c->pipe_fd < 0 && c->frames == 0) c->ahead = read_ahead_start(c->p);
    return c->ahead ? read_ahead_next(c->ahead, h, data) : pcap_next_ex(c->p, h, data);
}

int capture_next(struct capture *c, struct ns_frame *f)
{
    if (c->ended) return -1;
    for (;;) {
        if (c->stop && !c->draining) {
            /* A file is not drained (its rest is not "in flight"); a pipe is
             * read until it is empty, the stop handler made it non-blocking. */
            if (!c->live && c->pipe_fd < 0) return end(c);
            start_drain(c);
        }
        int64_t now = c->draining ? clock_ns(CLOCK_MONOTONIC) : 0;
        if (c->draining && now > c->drain_deadline_ns) return end(c);
        struct pcap_pkthdr *h;
        const u_char *data;
        int r = next_frame(c, &h, &data);
        if (r == PCAP_ERROR_BREAK && c->live) continue; /* capture_stop's breakloop: drain next */
        if (r == 0) { /* live, non-blocking: nothing in the ring now */
            if (!c->draining) {
                wait_ready(c, POLL_MS);
                if (c->stop) continue;
                /* One more look, so a frame that woke us is not left for the next call. */
                r = pcap_next_ex(c->p, &h, &data);
                if (r == 0 || r == PCAP_ERROR_BREAK) return 0;
            } else {
                if (now >= c->quiet_after_ns) return end(c);
                wait_ready(c, (int)((c->quiet_after_ns - now) / 1000000) + 1);
                continue;
            }
        }
        if (r < 0) {
            /* A file's end is PCAP_ERROR_BREAK. EAGAIN after a stop is the
             * end of what the pipe held, not damage. */
            if (r == PCAP_ERROR && !c->stop)
                snprintf(c->error, sizeof c->error, "%s", c->ahead ? read_ahead_error(c->ahead) : pcap_geterr(c->p));
            return end(c);
        }
        uint64_t number = ++c->frames;
        if (c->has_offline && !pcap_offline_filter(&c->offline, h, data)) continue;
        int64_t ts = (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec; /* tv_usec holds ns (NANO precision) */
        if (c->draining && c->live && ts > c->stop_wall_ns) return end(c);
        if (c->save && save_frame(c->save, h, data) != 0 && !c->save_warned && (c->save_warned = true))
            fprintf(stderr, "nfsscope: -w %s; frames from now on are not saved\n", save_error(c->save));
        c->delivered++;
        *f = (struct ns_frame){number, ts, h->caplen, h->len, c->dlt, data};
        return 1;
    }
}

void capture_stop(struct capture *c)
{
    c->stop = 1;
    if (c->live) pcap_breakloop(c->p);
    if (c->pipe_fd >= 0) { /* a blocked read restarts and returns what the pipe holds, then EAGAIN */
        int fl = fcntl(c->pipe_fd, F_GETFL);
        if (fl >= 0) fcntl(c->pipe_fd, F_SETFL, fl | O_NONBLOCK);
    }
}

void capture_stats(struct capture *c, struct capture_stats *out)
{
    struct pcap_stat ps;
    c->last.live = c->live;
    c->last.source = c->source;
    c->last.frames = c->delivered;
    c->last.frames_read = c->frames;
    c->last.start_ns = c->start_ns;
    c->last.end_ns = c->ended ? c->end_ns : 0;
    if (c->live && !c->ended && pcap_stats(c->p, &ps) == 0) {
        c->last.stats_ok = true;
        c->last.received = ps.ps_recv;
        c->last.kernel_drops = ps.ps_drop;
        c->last.interface_drops = ps.ps_ifdrop;
    }
    *out = c->last;
}
