/* The public API on real captures, as a front end uses it:
 *  - the per-frame events, collected, give the same transactions as the
 *    transaction callback (what --txn-log prints) and the same findings as
 *    the report: every finding's last event equals the final finding, and
 *    every example frame a finding lists had an event naming it;
 *  - transactions in completion order are the same set as in call order;
 *  - settle is idempotent and calling it every few hundred frames (as the
 *    screen does) changes nothing in the final results;
 *  - findings seen after settle at the end of input equal those after finish
 *    for every rule that does not depend on the end;
 *  - finish twice = once; lookups by key return the listed views;
 *  - tick far past the last frame gives up every outstanding call.
 * Usage: check_events CAPTURE... (exit 0: all hold). */
#include <pcap/pcap.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/udp_timing.h"

static int failures;
#define FAIL(...) do { failures++; fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } while (0)

/* What a transaction looked like, from the callback or rebuilt from events. */
struct tx {
    uint64_t call_frame, reply_frame;
    uint32_t xid, conn;
    uint32_t resends, dups;
    bool given_up, seen;
};

struct run {
    struct tx *cb, *ev;          /* by txn id */
    size_t cap;
    uint64_t ncb;
    struct ns_finding *last;     /* last event copy of each finding, by id */
    size_t nlast;
    uint64_t *occ;               /* frames seen in finding events: (id << 40) | frame */
    size_t nocc, occ_cap;
    uint64_t events[NS_EV_KINDS];
    uint64_t verdicts[NS_SLOT_VERDICTS], udp_sends;
    bool order_broken;
    uint64_t last_txn_id;
};

/* Room for transaction id in both tables. */
static void grow(struct run *r, uint64_t id)
{
    if (id < r->cap) return;
    size_t n = r->cap ? r->cap : 1024;
    while (n <= id) n *= 2;
    r->cb = realloc(r->cb, n * sizeof *r->cb);
    r->ev = realloc(r->ev, n * sizeof *r->ev);
    memset(r->cb + r->cap, 0, (n - r->cap) * sizeof *r->cb);
    memset(r->ev + r->cap, 0, (n - r->cap) * sizeof *r->ev);
    r->cap = n;
}

static void on_txn(void *ctx, const struct ns_txn *t)
{
    struct run *r = ctx;
    grow(r, t->id);
    struct tx *x = &r->cb[t->id];
    if (x->seen) FAIL("txn %llu handed out twice", (unsigned long long)t->id);
    /* call order: ids of calls come in increasing order (orphans too) */
    if (t->id < r->last_txn_id) r->order_broken = true;
    r->last_txn_id = t->id;
    *x = (struct tx){t->call_frame, t->reply_frame, t->xid, t->conn_id, t->sends ? t->sends - 1u : 0,
                     t->dup_replies, t->call_frame && !t->reply_frame, true};
    r->ncb++;
}

static void on_event(void *ctx, const struct ns_event *e)
{
    struct run *r = ctx;
    if (e->kind < NS_EV_KINDS) r->events[e->kind]++;
    if (e->kind == NS_EV_FINDING) {
        const struct ns_finding *f = e->finding;
        if (!f || f->id != e->finding_id || !f->id) { FAIL("finding event without its finding"); return; }
        if (f->id > r->nlast) {
            r->last = realloc(r->last, f->id * sizeof *r->last);
            memset(r->last + r->nlast, 0, (f->id - r->nlast) * sizeof *r->last);
            r->nlast = f->id;
        }
        r->last[f->id - 1] = *f;
        if (!f->message[0]) FAIL("finding %u (%s) told without a message", f->id, f->kind);
        if (e->frame) {
            if (r->nocc == r->occ_cap) {
                r->occ_cap = r->occ_cap ? 2 * r->occ_cap : 1024;
                r->occ = realloc(r->occ, r->occ_cap * sizeof *r->occ);
            }
            r->occ[r->nocc++] = (uint64_t)f->id << 40 | e->frame;
        }
        return;
    }
    if (e->kind == NS_EV_AMEND || !e->txn_id) return;
    if ((e->kind == NS_EV_CALL || e->kind == NS_EV_RESEND) && e->has_slot && e->slot_verdict < NS_SLOT_VERDICTS)
        r->verdicts[e->slot_verdict]++;
    if ((e->kind == NS_EV_CALL || e->kind == NS_EV_RESEND) && e->udp) {
        r->udp_sends++;
        if (e->send_no != (e->kind == NS_EV_CALL ? 1 : r->ev[e->txn_id].resends + 2u) && e->send_no)
            FAIL("txn %llu: send number %u out of step", (unsigned long long)e->txn_id, e->send_no);
    }
    grow(r, e->txn_id);
    struct tx *x = &r->ev[e->txn_id];
    x->seen = true;
    x->xid = e->xid;
    x->conn = e->conn_id;
    switch (e->kind) {
    case NS_EV_CALL: x->call_frame = e->frame; break;
    case NS_EV_RESEND: x->resends++; break;
    case NS_EV_REPLY: case NS_EV_ORPHAN_REPLY: x->reply_frame = e->frame; break;
    case NS_EV_DUP_REPLY: x->dups++; break;
    case NS_EV_GIVEN_UP: x->given_up = true; break;
    default: break;
    }
}

/* Feed a capture. settle_every: call settle every n frames (0 never);
 * stop_at: feed only so many frames (0 all). */
static ns_analyzer *analyse(const char *path, uint8_t order, unsigned settle_every, struct run *r)
{
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
    if (!p) { FAIL("%s: %s", path, err); return NULL; }
    struct ns_config cfg = NS_CONFIG_INIT;
    cfg.txn_order = order;
    char aerr[NS_ERRBUF_SIZE];
    ns_analyzer *a = ns_analyzer_new(&cfg, aerr, sizeof aerr);
    if (!a) { FAIL("%s: %s", path, aerr); pcap_close(p); return NULL; }
    if (r) {
        ns_analyzer_on_txn(a, on_txn, r);
        ns_analyzer_on_event(a, on_event, r);
    }
    struct pcap_pkthdr *h;
    const u_char *d;
    uint64_t n = 0;
    int dlt = pcap_datalink(p);
    while (pcap_next_ex(p, &h, &d) == 1) {
        struct ns_frame f = {++n, (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec, h->caplen, h->len, dlt, d};
        ns_analyzer_feed(a, &f);
        if (settle_every && n % settle_every == 0) ns_analyzer_settle(a);
    }
    pcap_close(p);
    return a;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The findings as text, one per line, for comparing runs. */
static char *findings_text(ns_analyzer *a, const char *skip_kind)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v);
    size_t cap = 1 + n * (NS_FINDING_MSG_MAX + 512), o = 0;
    char *s = malloc(cap);
    s[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ns_finding *f = v[i];
        if (skip_kind && strstr(skip_kind, f->kind)) continue;
        o += (size_t)snprintf(s + o, cap - o, "%s sev=%u count=%llu first=%lld last=%lld frames=", f->kind,
                              f->severity, (unsigned long long)f->count, (long long)f->first_ts_ns,
                              (long long)f->last_ts_ns);
        for (unsigned k = 0; k < f->nframes; k++)
            o += (size_t)snprintf(s + o, cap - o, "%llu,", (unsigned long long)f->frames[k]);
        o += (size_t)snprintf(s + o, cap - o, " %s\n", f->message);
    }
    return s;
}

static void check_capture(const char *path)
{
    struct run r;
    memset(&r, 0, sizeof r);
    ns_analyzer *a = analyse(path, NS_ORDER_CALL, 0, &r);
    if (!a) return;

    /* settle at the end of input, before finish: what the screen shows last */
    ns_analyzer_settle(a);
    uint64_t g1 = ns_analyzer_findings_generation(a);
    char *settled = findings_text(a, NULL);
    ns_analyzer_settle(a);
    if (ns_analyzer_findings_generation(a) != g1) FAIL("%s: a second settle changed findings", path);
    char *settled2 = findings_text(a, NULL);
    if (strcmp(settled, settled2)) FAIL("%s: settle is not idempotent", path);

    ns_analyzer_finish(a);
    uint64_t g2 = ns_analyzer_findings_generation(a);
    char *final = findings_text(a, NULL);
    ns_analyzer_finish(a);
    if (ns_analyzer_findings_generation(a) != g2) FAIL("%s: a second finish changed findings", path);
    char *final2 = findings_text(a, NULL);
    if (strcmp(final, final2)) FAIL("%s: finish twice differs from once", path);

    /* Rules that depend on the end of input: GRACE_STUCK (a client still in
     * grace when the capture ends) and FRAGMENT_LOSS (an incomplete fragment
     * train is given up 30 s after its first fragment, or at the end) and
     * CB_UNANSWERED (a callback given up at the end). */
    const char *end_kinds = "GRACE_STUCK FRAGMENT_LOSS CB_UNANSWERED";
    char *s_nogr = findings_text(a, end_kinds);
    free(settled2);
    settled2 = NULL;
    {
        /* recompute the settled view without end kinds from the text */
        size_t o = 0, cap = strlen(settled) + 1;
        char *t = malloc(cap);
        t[0] = 0;
        for (char *line = settled; *line;) {
            char *nl = strchr(line, '\n');
            size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
            char kind[NS_FINDING_KIND_MAX + 1] = "";
            sscanf(line, "%32s", kind);
            if (!strstr(end_kinds, kind)) { memcpy(t + o, line, len); o += len; t[o] = 0; }
            line += len;
        }
        if (strcmp(t, s_nogr)) FAIL("%s: findings after settle differ from after finish:\n--- settle\n%s--- finish\n%s",
                                    path, t, s_nogr);
        free(t);
    }

    /* transactions: events vs callback */
    const struct ns_stats *st = ns_analyzer_stats(a);
    if (r.ncb != st->txns) FAIL("%s: %llu transactions handed out, stats say %llu", path,
                                (unsigned long long)r.ncb, (unsigned long long)st->txns);
    if (r.order_broken) FAIL("%s: call order: transaction ids not increasing", path);
    for (uint64_t id = 1; id < r.cap; id++) {
        const struct tx *c = &r.cb[id], *e = &r.ev[id];
        if (c->seen != e->seen) { FAIL("%s: txn %llu: callback %d, events %d", path, (unsigned long long)id, c->seen, e->seen); continue; }
        if (!c->seen) continue;
        if (c->call_frame != e->call_frame || c->reply_frame != e->reply_frame || c->xid != e->xid ||
            c->conn != e->conn || c->resends != e->resends || c->dups != e->dups || c->given_up != e->given_up)
            FAIL("%s: txn %llu differs: callback call %llu reply %llu xid %08x resends %u dups %u given_up %d; "
                 "events call %llu reply %llu xid %08x resends %u dups %u given_up %d", path,
                 (unsigned long long)id, (unsigned long long)c->call_frame, (unsigned long long)c->reply_frame,
                 c->xid, c->resends, c->dups, c->given_up, (unsigned long long)e->call_frame,
                 (unsigned long long)e->reply_frame, e->xid, e->resends, e->dups, e->given_up);
    }
    for (uint64_t id = 1; id <= st->txns; id++)
        if (id >= r.cap || !r.cb[id].seen) { FAIL("%s: txn ids not 1..%llu", path, (unsigned long long)st->txns); break; }

    /* findings: last event = final; every example frame was told */
    const struct ns_finding *const *v;
    size_t nf = ns_analyzer_findings(a, &v);
    if (r.nocc) qsort(r.occ, r.nocc, sizeof *r.occ, cmp_u64);
    for (size_t i = 0; i < nf; i++) {
        const struct ns_finding *f = v[i];
        if (f->id > r.nlast || memcmp(&r.last[f->id - 1], f, sizeof *f) != 0) {
            FAIL("%s: finding %u %s: its last event is not the final finding", path, f->id, f->kind);
            continue;
        }
        for (unsigned k = 0; k < f->nframes; k++) {
            uint64_t key = (uint64_t)f->id << 40 | f->frames[k];
            if (!r.nocc || !bsearch(&key, r.occ, r.nocc, sizeof key, cmp_u64))
                FAIL("%s: finding %s lists frame %llu, no event tied it to that frame", path, f->kind,
                     (unsigned long long)f->frames[k]);
        }
        if (ns_analyzer_finding(a, f->id) != f) FAIL("%s: finding %u not found by id", path, f->id);
    }

    /* slot verdicts of the calls agree with the slot findings' counts */
    {
        uint64_t want[4] = {0, 0, 0, 0};
        for (size_t i = 0; i < nf; i++) {
            if (!strcmp(v[i]->kind, "REPLAY")) want[0] += v[i]->count;
            if (!strcmp(v[i]->kind, "FALSE_RETRY")) want[1] += v[i]->count;
            if (!strcmp(v[i]->kind, "SLOT_SEQ_GAP")) want[2] += v[i]->count;
            if (!strcmp(v[i]->kind, "SLOT_ABOVE_GRANTED")) want[3] += v[i]->count;
        }
        uint64_t got[4] = {r.verdicts[NS_SLOT_REPLAY], r.verdicts[NS_SLOT_FALSE_RETRY],
                           r.verdicts[NS_SLOT_GAP] + r.verdicts[NS_SLOT_BACKWARDS] + r.verdicts[NS_SLOT_IN_FLIGHT],
                           r.verdicts[NS_SLOT_ABOVE_GRANTED]};
        static const char *const names[4] = {"REPLAY", "FALSE_RETRY", "SLOT_SEQ_GAP", "SLOT_ABOVE_GRANTED"};
        for (int k = 0; k < 4; k++)
            if (got[k] != want[k]) FAIL("%s: %llu calls judged %s per frame, the finding counts %llu", path,
                                        (unsigned long long)got[k], names[k], (unsigned long long)want[k]);
    }

    /* lookups by key return the listed views */
    for (size_t i = 0; i < ns_analyzer_session_count(a); i++) {
        const struct ns_session_view *s = ns_analyzer_session(a, i);
        if (ns_analyzer_session_by_id(a, s->sessionid) != s) FAIL("%s: session %zu not found by id", path, i);
    }
    for (size_t i = 0; i < ns_analyzer_client_count(a); i++) {
        const struct ns_client_view *c = ns_analyzer_client(a, i);
        if (ns_analyzer_client_by_id(a, c->clientid) != c) FAIL("%s: client %zu not found by id", path, i);
    }
    for (size_t i = 0; i < ns_analyzer_udp_pair_count(a); i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
        if (ns_analyzer_udp_pair_by_key(a, &p->client, &p->server) != p) FAIL("%s: UDP pair %zu not found", path, i);
    }

    /* completion order: the same transactions */
    struct run rc;
    memset(&rc, 0, sizeof rc);
    ns_analyzer *b = analyse(path, NS_ORDER_COMPLETION, 0, &rc);
    if (b) {
        ns_analyzer_finish(b);
        if (rc.ncb != r.ncb) FAIL("%s: completion order handed out %llu, call order %llu", path,
                                  (unsigned long long)rc.ncb, (unsigned long long)r.ncb);
        /* handed out at its first reply: what comes later (duplicate
         * replies, late UDP resends) is not in the copy handed out */
        for (uint64_t id = 1; id < r.cap && id < rc.cap; id++) {
            const struct tx *x = &r.cb[id], *y = &rc.cb[id];
            if (x->seen != y->seen || x->call_frame != y->call_frame || x->reply_frame != y->reply_frame ||
                x->xid != y->xid || x->conn != y->conn || x->given_up != y->given_up)
                FAIL("%s: txn %llu differs in completion order", path, (unsigned long long)id);
        }
        ns_analyzer_free(b);
    }

    /* settling every 256 frames changes nothing at the end */
    ns_analyzer *c = analyse(path, NS_ORDER_CALL, 256, NULL);
    if (c) {
        ns_analyzer_finish(c);
        char *t = findings_text(c, NULL);
        if (strcmp(t, final)) FAIL("%s: settling while feeding changed the findings:\n%s---\n%s", path, t, final);
        free(t);
        ns_analyzer_free(c);
    }

    /* tick: a long silence gives up every call */
    ns_analyzer *d = analyse(path, NS_ORDER_CALL, 0, NULL);
    if (d) {
        ns_analyzer_tick(d, ns_analyzer_now(d) + 3600ll * 1000000000ll);
        if (ns_analyzer_outstanding_calls(d)) FAIL("%s: %u calls outstanding after an hour of ticks", path,
                                                   ns_analyzer_outstanding_calls(d));
        ns_analyzer_free(d);
    }

    printf("%s: %llu transactions, %zu findings, events:", path, (unsigned long long)r.ncb, nf);
    for (int k = 1; k < NS_EV_KINDS; k++)
        printf(" %s %llu", ns_event_kind_name((uint8_t)k), (unsigned long long)r.events[k]);
    printf("; slot verdicts:");
    for (int k = 1; k < NS_SLOT_VERDICTS; k++)
        if (r.verdicts[k]) printf(" %s %llu", ns_slot_verdict_name((uint8_t)k), (unsigned long long)r.verdicts[k]);
    printf("; UDP sends %llu\n", (unsigned long long)r.udp_sends);
    free(settled);
    free(final);
    free(final2);
    free(s_nogr);
    free(r.cb), free(r.ev), free(r.last), free(r.occ);
    free(rc.cb), free(rc.ev), free(rc.last), free(rc.occ);
    ns_analyzer_free(a);
}

static void check_config(void)
{
    char err[NS_ERRBUF_SIZE];
    struct ns_config cfg = NS_CONFIG_INIT;
    cfg.api_version = NS_API_VERSION + 1;
    if (ns_analyzer_new(&cfg, err, sizeof err) || !strstr(err, "API version")) FAIL("API version not checked: %s", err);
    cfg.api_version = NS_API_OLDEST - 1;
    if (ns_analyzer_new(&cfg, err, sizeof err) || !strstr(err, "API versions 4 to")) FAIL("too old a front end served: %s", err);
    /* the oldest front end served, with its shorter config (no rpc_ports) */
    struct ns_config old = NS_CONFIG_INIT;
    old.api_version = NS_API_OLDEST;
    old.size = offsetof(struct ns_config, rpc_ports);
    ns_analyzer *oa = ns_analyzer_new(&old, err, sizeof err);
    if (!oa) FAIL("a version %d front end refused: %s", NS_API_OLDEST, err);
    ns_analyzer_free(oa);
    if (ns_api_version() != NS_API_VERSION || ns_api_oldest() != NS_API_OLDEST) FAIL("ns_api_version/ns_api_oldest");
    struct ns_config small = NS_CONFIG_INIT;
    small.size = 8;
    if (ns_analyzer_new(&small, err, sizeof err) || !strstr(err, "NS_CONFIG_INIT")) FAIL("size not checked: %s", err);
    struct ns_config neg = NS_CONFIG_INIT;
    neg.call_timeout_ns = -1;
    if (ns_analyzer_new(&neg, err, sizeof err) || !strstr(err, "negative")) FAIL("negative timeout accepted: %s", err);
    struct ns_config tiny = NS_CONFIG_INIT;
    tiny.memcap = 1000;
    if (ns_analyzer_new(&tiny, err, sizeof err) || !strstr(err, "1 MiB")) FAIL("1000-byte memory cap accepted: %s", err);
    struct ns_config order = NS_CONFIG_INIT;
    order.txn_order = 7;
    if (ns_analyzer_new(&order, err, sizeof err) || !strstr(err, "order")) FAIL("transaction order 7 accepted: %s", err);
    ns_analyzer *a = ns_analyzer_new(NULL, err, sizeof err);
    if (!a) { FAIL("defaults refused: %s", err); return; }
    struct ns_mem_pool pools[NS_MEM_POOLS];
    if (ns_analyzer_memory(a, pools, NS_MEM_POOLS) != NS_MEM_POOLS) FAIL("memory pools");
    uint64_t cap = 0, sum = 0;
    ns_analyzer_memory_total(a, &cap, NULL);
    for (int i = 0; i < NS_MEM_POOLS; i++) sum += pools[i].cap;
    if (sum != cap || cap > 512ull << 20 || cap < 500ull << 20) FAIL("pool caps %llu, total %llu", (unsigned long long)sum, (unsigned long long)cap);
    ns_analyzer_free(a);
}

int main(int argc, char **argv)
{
    check_config();
    for (int i = 1; i < argc; i++) check_capture(argv[i]);
    fprintf(stderr, "check_events: %d captures, %d failures\n", argc - 1, failures);
    return failures ? 1 : 0;
}
