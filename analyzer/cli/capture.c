/* Capture source: pcap file or live interface (see capture.h). */
#include "capture.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct capture {
    pcap_t *p;
    bool live;
    int dlt;
    uint64_t frames;
    volatile sig_atomic_t stop;
    char source[256];
    char error[512];
};

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

struct capture *capture_open(const struct options *o, char *err, size_t errlen)
{
    struct capture *c = calloc(1, sizeof *c);
    if (!c) { snprintf(err, errlen, "out of memory"); return NULL; }
    c->live = o->interface != NULL;
    const char *src = o->read_file ? o->read_file : o->interface;
    snprintf(c->source, sizeof c->source, "%s", strcmp(src, "-") ? src : "standard input");
    c->p = c->live ? open_live(o, err, errlen) : open_file(o->read_file, err, errlen);
    if (!c->p) { free(c); return NULL; }
    c->dlt = pcap_datalink(c->p);
    if (!ns_linktype_supported(c->dlt)) {
        const char *name = pcap_datalink_val_to_name(c->dlt);
        snprintf(err, errlen, "unsupported link type %s (%d); supported: EN10MB, LINUX_SLL, LINUX_SLL2, RAW, NULL, LOOP",
                 name ? name : "unknown", c->dlt);
        capture_close(c);
        return NULL;
    }
    if (o->filter) {
        struct bpf_program prog;
        if (pcap_compile(c->p, &prog, o->filter, 1, PCAP_NETMASK_UNKNOWN) != 0 || pcap_setfilter(c->p, &prog) != 0) {
            snprintf(err, errlen, "filter '%s': %s", o->filter, pcap_geterr(c->p));
            capture_close(c);
            return NULL;
        }
        pcap_freecode(&prog);
    }
    return c;
}

void capture_close(struct capture *c)
{
    if (!c) return;
    if (c->p) pcap_close(c->p);
    free(c);
}

int capture_datalink(const struct capture *c) { return c->dlt; }
FILE *capture_file(const struct capture *c) { return c->live ? NULL : pcap_file(c->p); }
int capture_fd(const struct capture *c) { return c->live ? pcap_get_selectable_fd(c->p) : -1; }
const char *capture_error(const struct capture *c) { return c->error[0] ? c->error : NULL; }

int capture_next(struct capture *c, struct ns_frame *f)
{
    if (c->stop) return -1;
    struct pcap_pkthdr *h;
    const u_char *data;
    int r = pcap_next_ex(c->p, &h, &data);
    if (r == 0) return 0;
    if (r < 0) {
        if (r == PCAP_ERROR) snprintf(c->error, sizeof c->error, "%s", pcap_geterr(c->p));
        return -1;
    }
    *f = (struct ns_frame){++c->frames, (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec, h->caplen, h->len,
                           c->dlt, data};
    return 1;
}

void capture_stop(struct capture *c)
{
    c->stop = 1;
    pcap_breakloop(c->p);
}

void capture_stats(struct capture *c, struct capture_stats *out)
{
    memset(out, 0, sizeof *out);
    out->live = c->live;
    out->source = c->source;
    out->frames = c->frames;
    struct pcap_stat ps;
    if (c->live && pcap_stats(c->p, &ps) == 0) {
        out->stats_ok = true;
        out->kernel_drops = ps.ps_drop;
        out->interface_drops = ps.ps_ifdrop;
    }
}
