/* --peer (see cli_peer.h). */
#include "cli_peer.h"

#include <pcap/pcap.h>

#include "capture.h"
#include <stdio.h>
#include <string.h>

/* Hand every frame of file to the side's joiner, and to a when given. */
static int read_frames(ns_two_point *tp, enum ns_tp_side side, ns_analyzer *a, const char *file, char *err,
                       size_t errlen)
{
    char ebuf[PCAP_ERRBUF_SIZE] = "", why[PCAP_ERRBUF_SIZE + 160] = "";
    pcap_t *pc = capture_file_unfit(file, why, sizeof why)
                     ? NULL
                     : pcap_open_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    if (!pc) { /* said as -r says it */
        if (!why[0]) capture_file_error(file, ebuf, why, sizeof why);
        snprintf(err, errlen, "--peer: %s: %s", file, why);
        return -1;
    }
    int dlt = pcap_datalink(pc);
    if (!ns_linktype_supported(dlt)) {
        snprintf(err, errlen, "--peer: %s: link type %d not supported", file, dlt);
        pcap_close(pc);
        return -1;
    }
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t n = 0;
    int r;
    while ((r = pcap_next_ex(pc, &h, &data)) == 1) {
        struct ns_frame f = {.number = ++n, .ts_ns = (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec,
                             .caplen = h->caplen, .len = h->len, .linktype = dlt, .data = data};
        if (a) ns_analyzer_feed(a, &f);
        ns_two_point_frame(tp, side, &f);
    }
    if (r == -1) fprintf(stderr, "nfsscope: --peer: %s: cut off or damaged after frame %llu: %s\n", file,
                         (unsigned long long)n, pcap_geterr(pc));
    pcap_close(pc);
    return 0;
}

struct server_ctx {
    ns_two_point *tp;
    ns_analyzer *a;
};

static void on_server_txn(void *ctx, const struct ns_txn *t)
{
    struct server_ctx *s = ctx;
    ns_two_point_txn(s->tp, NS_TP_SERVER, t, ns_analyzer_conn(s->a, t->conn_id), NULL);
}

int peer_open(struct peer *p, const char *server_file, const struct ns_config *cfg, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->tp = ns_two_point_new(0);
    struct ns_config c = *cfg;
    c.txn_order = NS_ORDER_COMPLETION; /* the order does not matter here: the least memory */
    char aerr[NS_ERRBUF_SIZE] = "";
    ns_analyzer *a = p->tp ? ns_analyzer_new(&c, aerr, sizeof aerr) : NULL;
    if (!a) {
        snprintf(err, errlen, "--peer: %s", p->tp ? aerr : "out of memory");
        peer_close(p);
        return -1;
    }
    struct server_ctx s = {p->tp, a};
    ns_analyzer_on_txn(a, on_server_txn, &s);
    int rc = read_frames(p->tp, NS_TP_SERVER, a, server_file, err, errlen);
    ns_analyzer_finish(a); /* the calls still waiting are handed out now, while s lives */
    ns_analyzer_free(a);
    if (rc) peer_close(p);
    return rc;
}

void peer_attach(struct peer *p, ns_analyzer *a, ns_txn_fn next, void *next_ctx)
{
    p->a = a;
    p->next = next;
    p->next_ctx = next_ctx;
}

void peer_on_txn(void *ctx, const struct ns_txn *t)
{
    struct peer *p = ctx;
    ns_two_point_txn(p->tp, NS_TP_CLIENT, t, ns_analyzer_conn(p->a, t->conn_id), &p->split);
    if (p->next) p->next(p->next_ctx, t);
    p->split = (struct ns_tp_split){0};
}

int peer_finish(struct peer *p, const char *client_file, char *err, size_t errlen)
{
    int rc = read_frames(p->tp, NS_TP_CLIENT, NULL, client_file, err, errlen);
    ns_two_point_finish(p->tp);
    return rc;
}

void peer_close(struct peer *p)
{
    ns_two_point_free(p->tp);
    p->tp = NULL;
}
