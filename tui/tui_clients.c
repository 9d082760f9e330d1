/* Latency and errors per client and per connection, which the core does
 * not count: kept from the reply events (as the sessions' latency is), and
 * view 7, one row per client address. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

/* A reply the client will see as a failure: an NFS (or MOUNT) status other
 * than OK, or the RPC refused (denied, or accepted without SUCCESS). */
static bool reply_failed(const struct ns_txn *t)
{
    if (t->reply_stat == NS_REPLY_DENIED) return true;
    if (t->reply_stat == NS_REPLY_ACCEPTED && t->rpc_status != NS_RPC_SUCCESS) return true;
    return t->has_status && t->status != 0;
}

#define ADDR_KEY (1 + 16)
static size_t addr_key(uint8_t *k, const struct ns_addr *a)
{
    k[0] = a->family;
    memcpy(k + 1, a->a, 16);
    return ADDR_KEY;
}

static void *extra_of(struct meter *m, size_t size)
{
    if (m && !m->extra) m->extra = calloc(1, size);
    return m ? m->extra : NULL;
}

void clients_on_event(struct tui *t, const struct ns_event *ev)
{
    if (ev->backchannel || !ev->conn_id || (ev->kind != NS_EV_CALL && ev->kind != NS_EV_REPLY)) return;
    const struct ns_conn *c = ns_analyzer_conn(t->a, ev->conn_id);
    if (!c) return;
    uint8_t key[ADDR_KEY];
    struct client_extra *cl = extra_of(meter_find(&t->m_client, key, addr_key(key, &c->client.addr), true),
                                       sizeof *cl);
    if (ev->kind == NS_EV_CALL) {
        if (cl) cl->calls++;
        return;
    }
    if (!ev->txn) return;
    struct conn_extra *cx = extra_of(meter_find(&t->m_conn, &ev->conn_id, sizeof ev->conn_id, true), sizeof *cx);
    bool failed = reply_failed(ev->txn);
    int64_t lat = ns_txn_latency_ns(ev->txn);
    if (cx) {
        cx->errors += failed;
        if (lat >= 0) ns_latency_add(&cx->lat, (uint64_t)lat);
    }
    if (cl) {
        cl->errors += failed;
        if (lat >= 0) ns_latency_add(&cl->lat, (uint64_t)lat);
    }
}

void roll_clients(struct tui *t)
{
    for (size_t i = 0; i < t->m_client.cap; i++) {
        struct meter *m = &t->m_client.v[i];
        const struct client_extra *x = m->used ? m->extra : NULL;
        if (!x) continue;
        uint64_t now[2] = {x->calls, x->errors};
        meter_roll(m, now, 2, t->dt);
    }
    /* a connection the analyzer let go has no row: its histogram goes */
    for (size_t i = 0; i < t->m_conn.cap; i++) {
        struct meter *m = &t->m_conn.v[i];
        uint32_t id;
        if (!m->used || !m->extra || m->klen != sizeof id) continue;
        memcpy(&id, m->key, sizeof id);
        if (!ns_analyzer_conn(t->a, id)) free(m->extra), m->extra = NULL;
    }
}

static const struct tui_col g_cols[] = {
    {"client", 15, true, 0, false}, {"conns", 5, false, 3, false}, {"sessions", 8, false, 4, false},
    {"calls", 8, false, 2, false},  {"calls/s", 7, false, 0, false}, {"p50", 7, false, 1, false},
    {"p99", 7, false, 0, false},    {"errors", 7, false, 0, false}, {"err/s", 6, false, 0, false},
};

static int by_address(const void *pa, const void *pb)
{
    const struct meter *a = *(const struct meter *const *)pa, *b = *(const struct meter *const *)pb;
    return memcmp(a->key, b->key, ADDR_KEY);
}

void view_clients(struct tui *t)
{
    table_reset(&t->table, g_cols, 9);
    size_t nc = ns_analyzer_conn_count(t->a), ns = ns_analyzer_session_count(t->a), n = 0;
    /* listed by address (the meters are in hash order) */
    const struct meter **by = t->m_client.n ? malloc(t->m_client.n * sizeof *by) : NULL;
    for (size_t i = 0; by && i < t->m_client.cap && n < t->m_client.n; i++)
        if (t->m_client.v[i].used && t->m_client.v[i].extra) by[n++] = &t->m_client.v[i];
    if (n) qsort(by, n, sizeof *by, by_address);
    for (size_t i = 0; i < n; i++) {
        const struct meter *m = by[i];
        const struct client_extra *x = m->extra;
        struct tui_row *r = table_add(&t->table);
        if (!r) break;
        struct ns_addr addr = {.family = m->key[0]};
        memcpy(addr.a, m->key + 1, 16);
        char name[NS_ENDPOINT_STRLEN];
        ns_addr_str(&addr, name, sizeof name);
        uint64_t conns = 0, sessions = 0;
        for (uint32_t id = 1; id <= nc; id++) {
            const struct ns_conn *c = ns_analyzer_conn(t->a, id);
            conns += c && !memcmp(&c->client.addr, &addr, sizeof addr);
        }
        for (size_t k = 0; k < ns; k++) {
            const struct ns_session_view *s = ns_analyzer_session(t->a, k);
            char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN];
            if (!s) continue;
            session_ends(t, s, cl, sizeof cl, sv, sizeof sv);
            sessions += !strcmp(cl, name);
        }
        cell_str(r, 0, name);
        cell_u64(r, 1, conns);
        cell_u64(r, 2, sessions);
        cell_u64(r, 3, x->calls);
        cell_rate(r, 4, m->rolled ? m->rate[0] : 0);
        cell_ns(r, 5, x->lat.count ? (int64_t)ns_latency_percentile_ns(&x->lat, 0.50) : -1);
        cell_ns(r, 6, x->lat.count ? (int64_t)ns_latency_percentile_ns(&x->lat, 0.99) : -1);
        cell_u64(r, 7, x->errors);
        cell_rate(r, 8, m->rolled ? m->rate[1] : 0);
        if (x->errors) r->sev = NS_SEV_WARNING;
        row_match(r, "%s", name);
        uint64_t h = 1469598103934665603ull; /* the address is longer than a row id: its hash */
        for (size_t b = 0; b < m->klen; b++) h = (h ^ m->key[b]) * 1099511628211ull;
        r->idlen = sizeof h;
        memcpy(r->id, &h, sizeof h);
    }
    free(by);
}

const struct conn_extra *conn_extra(struct tui *t, uint32_t id)
{
    const struct meter *m = meter_find(&t->m_conn, &id, sizeof id, false);
    return m ? m->extra : NULL;
}
