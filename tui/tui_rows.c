/* Views 1, 2, 4 and 6 as table rows (sessions, connections, operations,
 * UDP pairs), and the once-a-second roll that turns their counters into
 * rates over the interval. Names and figures come from view.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"

struct session_extra *session_extra(struct tui *t, const uint8_t *sid, bool add)
{
    struct meter *m = meter_find(&t->m_sess, sid, NS_SESSIONID_LEN, add);
    if (!m) return NULL;
    if (!m->extra && add) m->extra = calloc(1, sizeof(struct session_extra));
    return m->extra;
}

void session_ends(struct tui *t, const struct ns_session_view *s, char *client, size_t cn, char *server, size_t sn)
{
    snprintf(client, cn, "?");
    snprintf(server, sn, "?");
    const struct ns_conn *c = s->nconns ? ns_analyzer_conn(t->a, s->conns[0].conn_id) : NULL;
    if (!c && s->create_conn) c = ns_analyzer_conn(t->a, s->create_conn);
    if (c) {
        ns_addr_str(&c->client.addr, client, cn);
        ns_endpoint_str(&c->server, server, sn);
    }
}

const struct ns_session_view *current_session(struct tui *t)
{
    if (t->has_sel_session) {
        const struct ns_session_view *s = ns_analyzer_session_by_id(t->a, t->sel_session);
        if (s) return s;
    }
    return ns_analyzer_session(t->a, 0);
}

static void id_row(struct tui_row *r, const void *id, size_t n)
{
    r->idlen = (uint8_t)(n > sizeof r->id ? sizeof r->id : n);
    memcpy(r->id, id, r->idlen);
}

static const struct tui_col g_sess_cols[] = {
    {"session", 32, true, 0, false}, {"client", 15, true, 3, false}, {"server", 21, true, 4, false},
    {"conns", 5, false, 2, false}, {"slots g/r", 9, false, 0, false}, {"out/max", 7, false, 0, false},
    {"calls/s", 7, false, 0, false}, {"p99", 7, false, 0, false}, {"err/s", 6, false, 0, false},
};

void view_sessions(struct tui *t)
{
    table_reset(&t->table, g_sess_cols, 9);
    size_t n = ns_analyzer_session_count(t->a);
    for (size_t i = 0; i < n; i++) {
        const struct ns_session_view *s = ns_analyzer_session(t->a, i);
        struct tui_row *r = s ? table_add(&t->table) : NULL;
        if (!r) continue;
        char sid[40], cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN], buf[48];
        ns_hex_str(s->sessionid, NS_SESSIONID_LEN, sid, sizeof sid);
        session_ends(t, s, cl, sizeof cl, sv, sizeof sv);
        cell_str(r, 0, sid);
        cell_str(r, 1, cl);
        cell_str(r, 2, sv);
        cell_u64(r, 3, s->nconns);
        if (s->has_requested) snprintf(buf, sizeof buf, "%u/%u", s->granted_slots, s->fore_requested.maxrequests);
        else snprintf(buf, sizeof buf, "%u/?", s->granted_slots);
        cell_str(r, 4, buf);
        r->key[4] = s->granted_slots;
        snprintf(buf, sizeof buf, "%u/%u", s->outstanding, s->max_outstanding);
        cell_str(r, 5, buf);
        r->key[5] = s->outstanding;
        const struct meter *m = meter_find(&t->m_sess, s->sessionid, NS_SESSIONID_LEN, false);
        cell_rate(r, 6, m ? m->rate[0] : 0);
        const struct session_extra *x = m ? m->extra : NULL;
        cell_ns(r, 7, x && x->lat.count ? (int64_t)ns_latency_percentile_ns(&x->lat, 0.99) : -1);
        cell_rate(r, 8, m ? m->rate[1] : 0);
        if (s->errors) r->sev = NS_SEV_WARNING;
        row_match(r, "%s %s %s", sid, cl, sv);
        id_row(r, s->sessionid, NS_SESSIONID_LEN);
    }
}

/* at 80 columns: conn, client, bind (how a v4.1 connection was bound is
 * what goes wrong with them), calls/s, p99, errors; server when it fits */
static const struct tui_col g_conn_cols[] = {
    {"conn", 5, true, 0, false},     {"tr", 3, true, 8, false},       {"client", 21, true, 2, false},
    {"server", 21, true, 4, false},  {"session", 12, true, 7, false}, {"bind", 20, true, 3, false},
    {"calls/s", 7, false, 0, false}, {"p99", 7, false, 0, false},     {"errors", 6, false, 0, false},
    {"bytes/s", 8, false, 6, false}, {"share", 6, false, 5, false},
};
/* without NFSv4.1 sessions the session, bind and share columns say nothing */
static const struct tui_col g_conn_cols_nosess[] = {
    {"conn", 5, true, 0, false},     {"tr", 3, true, 8, false},        {"client", 21, true, 2, false},
    {"server", 21, true, 4, false},  {"session", 12, true, -1, false}, {"bind", 20, true, -1, false},
    {"calls/s", 7, false, 0, false}, {"p99", 7, false, 0, false},      {"errors", 6, false, 0, false},
    {"bytes/s", 8, false, 6, false}, {"share", 6, false, -1, false},
};

/* The session listing a connection, and the connection's entry in it. */
struct conn_owner { const struct ns_session_view *s; const struct ns_session_conn *sc; };

void view_conns(struct tui *t)
{
    size_t nc = ns_analyzer_conn_count(t->a), ns = ns_analyzer_session_count(t->a);
    table_reset(&t->table, ns ? g_conn_cols : g_conn_cols_nosess, 11);
    struct conn_owner *own = calloc(nc + 1, sizeof *own);
    for (size_t i = 0; own && i < ns; i++) {
        const struct ns_session_view *s = ns_analyzer_session(t->a, i);
        for (uint32_t k = 0; s && k < s->nconns && k < NS_SESSION_CONNS; k++)
            if (s->conns[k].conn_id <= nc && !own[s->conns[k].conn_id].s)
                own[s->conns[k].conn_id] = (struct conn_owner){s, &s->conns[k]};
    }
    for (uint32_t id = 1; id <= nc; id++) {
        const struct ns_conn *c = ns_analyzer_conn(t->a, id);
        struct tui_row *r = c ? table_add(&t->table) : NULL;
        if (!r) continue;
        char name[NS_CONN_NAME_LEN], cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN], sid[40] = "-";
        ns_endpoint_str(&c->client, cl, sizeof cl);
        ns_endpoint_str(&c->server, sv, sizeof sv);
        cell_str(r, 0, ns_conn_name(id, name, sizeof name));
        r->key[0] = id;
        cell_str(r, 1, ns_transport_name(c->transport));
        cell_str(r, 2, cl);
        cell_str(r, 3, sv);
        const struct conn_owner *o = own ? &own[id] : NULL;
        if (o && o->s) {
            ns_hex_str(o->s->sessionid, NS_SESSIONID_LEN, sid, sizeof sid);
            cell_str(r, 5, ns_bind_method_name(o->sc->method));
            struct ns_session_conn_totals tot;
            ns_session_conn_totals(o->s, &tot);
            double p = ns_percent((double)o->sc->calls, (double)tot.calls);
            snprintf(r->cell[10], TUI_CELL, "%.0f%%", p);
            r->key[10] = p;
            if (o->sc->method == NS_BIND_NONE) r->sev = NS_SEV_ERROR;
        } else {
            cell_str(r, 5, "-");
            cell_str(r, 10, "-");
        }
        cell_str(r, 4, sid);
        const struct meter *m = meter_find(&t->m_conn, &id, sizeof id, false);
        const struct conn_extra *x = m ? m->extra : NULL;
        cell_rate(r, 6, m ? m->rate[0] : 0);
        cell_ns(r, 7, x && x->lat.count ? (int64_t)ns_latency_percentile_ns(&x->lat, 0.99) : -1);
        cell_u64(r, 8, x ? x->errors : 0);
        cell_rate(r, 9, m ? m->rate[1] : 0);
        if (x && x->errors && r->sev < 0) r->sev = NS_SEV_WARNING;
        row_match(r, "%s %s %s %s", name, cl, sv, sid);
        id_row(r, &id, sizeof id);
    }
    free(own);
}

static const struct tui_col g_op_cols[] = {
    {"operation", 22, true, 0, false}, {"calls", 9, false, 2, false}, {"calls/s", 8, false, 0, false},
    {"p50", 8, false, 0, false}, {"p99", 8, false, 0, false}, {"errors", 8, false, 0, false},
    {"err/s", 7, false, 0, false},
};

void view_ops(struct tui *t)
{
    table_reset(&t->table, g_op_cols, 7);
    const struct ns_stats *st = ns_analyzer_stats(t->a);
    struct ns_op_row rows[NS_OPKEY_MAX];
    size_t n = ns_op_rows(st, rows, NS_OPKEY_MAX);
    for (size_t i = 0; i < n; i++) {
        struct tui_row *r = table_add(&t->table);
        if (!r) break;
        struct ns_latency_summary ls;
        ns_latency_summarize(&rows[i].s->latency, &ls);
        cell_str(r, 0, rows[i].name);
        cell_u64(r, 1, rows[i].s->count);
        const struct meter *m = meter_find(&t->m_op, &rows[i].key, sizeof rows[i].key, false);
        cell_rate(r, 2, m ? m->rate[0] : 0);
        cell_ns(r, 3, ls.count ? (int64_t)ls.p50_ns : -1);
        cell_ns(r, 4, ls.count ? (int64_t)ls.p99_ns : -1);
        cell_u64(r, 5, rows[i].s->errors);
        cell_rate(r, 6, m ? m->rate[1] : 0);
        if (rows[i].s->errors) r->sev = NS_SEV_WARNING;
        row_match(r, "%s", rows[i].name);
        id_row(r, &rows[i].key, sizeof rows[i].key);
    }
}

static const struct tui_col g_udp_cols[] = {
    {"client", 15, true, 0, false}, {"server", 21, true, 0, false}, {"class", 7, true, 0, false},
    {"calls/s", 7, false, 0, false}, {"SRTT", 8, false, 0, false}, {"RTO", 8, false, 0, false},
    {"rtx/s", 6, false, 0, false}, {"retrans", 7, false, 2, false}, {"major", 5, false, 0, false},
};

static size_t udp_key(uint8_t *k, const struct ns_udp_pair *p, unsigned cls)
{
    memcpy(k, &p->client, sizeof p->client);
    memcpy(k + sizeof p->client, &p->server, sizeof p->server);
    k[sizeof p->client + sizeof p->server] = (uint8_t)cls;
    return sizeof p->client + sizeof p->server + 1;
}

void view_udp(struct tui *t)
{
    table_reset(&t->table, g_udp_cols, 9);
    size_t n = ns_analyzer_udp_pair_count(t->a);
    for (size_t i = 0; i < n; i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(t->a, i);
        for (unsigned c = 0; p && c < NS_UDP_TIMERS; c++) {
            if (!ns_udp_class_used(&p->cls[c])) continue;
            struct tui_row *r = table_add(&t->table);
            if (!r) return;
            const struct ns_udp_class *k = &p->cls[c];
            char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN];
            uint8_t key[METER_KEY];
            size_t kl = udp_key(key, p, c);
            ns_addr_str(&p->client, cl, sizeof cl);
            ns_endpoint_str(&p->server, sv, sizeof sv);
            cell_str(r, 0, cl);
            cell_str(r, 1, sv);
            cell_str(r, 2, ns_udp_timer_name(c));
            const struct meter *m = meter_find(&t->m_udp, key, kl, false);
            cell_rate(r, 3, m ? m->rate[0] : 0);
            /* class 0 has a fixed timeout and no estimator */
            cell_ns(r, 4, c && k->srtt_ns ? k->srtt_ns : -1);
            cell_ns(r, 5, k->rto_ns ? k->rto_ns : -1);
            cell_rate(r, 6, m ? m->rate[1] : 0);
            cell_u64(r, 7, k->retransmissions);
            cell_u64(r, 8, k->major_timeouts);
            if (k->major_timeouts) r->sev = NS_SEV_ERROR;
            else if (k->retransmissions) r->sev = NS_SEV_WARNING;
            row_match(r, "%s %s %s", cl, sv, ns_udp_timer_name(c));
            uint64_t h = 1469598103934665603ull; /* the key is longer than a row id: its hash */
            for (size_t b = 0; b < kl; b++) h = (h ^ key[b]) * 1099511628211ull;
            id_row(r, &h, sizeof h);
        }
    }
}

void roll_sessions(struct tui *t)
{
    size_t n = ns_analyzer_session_count(t->a);
    for (size_t i = 0; i < n; i++) {
        const struct ns_session_view *s = ns_analyzer_session(t->a, i);
        struct meter *m = s ? meter_find(&t->m_sess, s->sessionid, NS_SESSIONID_LEN, true) : NULL;
        if (!m) continue;
        uint64_t now[2] = {s->calls, s->errors};
        meter_roll(m, now, 2, t->dt);
        struct session_extra *x = session_extra(t, s->sessionid, true);
        if (!x) continue;
        for (uint32_t k = 0; k < s->nslots && k < SLOT_SHOW; k++) x->slot_calls[k] = s->slots[k].calls;
        /* idle seconds since the last call or reply get their columns too */
        slot_history_catch_up(x, ns_analyzer_now(t->a), s->granted_slots);
    }
}

void roll_others(struct tui *t)
{
    size_t nc = ns_analyzer_conn_count(t->a);
    for (uint32_t id = 1; id <= nc; id++) {
        const struct ns_conn *c = ns_analyzer_conn(t->a, id);
        struct meter *m = c ? meter_find(&t->m_conn, &id, sizeof id, true) : NULL;
        uint64_t now[2] = {c ? c->calls : 0, c ? c->bytes_to_server + c->bytes_to_client : 0};
        if (m) meter_roll(m, now, 2, t->dt);
    }
    const struct ns_stats *st = ns_analyzer_stats(t->a);
    for (uint32_t k = 0; k < NS_OPKEY_MAX; k++) {
        if (!st->ops[k]) continue;
        struct meter *m = meter_find(&t->m_op, &k, sizeof k, true);
        uint64_t now[2] = {st->ops[k]->count, st->ops[k]->errors};
        if (m) meter_roll(m, now, 2, t->dt);
    }
    size_t np = ns_analyzer_udp_pair_count(t->a);
    for (size_t i = 0; i < np; i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(t->a, i);
        for (unsigned c = 0; p && c < NS_UDP_TIMERS; c++) {
            uint8_t key[METER_KEY];
            size_t kl = udp_key(key, p, c);
            struct meter *m = meter_find(&t->m_udp, key, kl, true);
            uint64_t now[2] = {p->cls[c].calls, p->cls[c].retransmissions};
            if (m) meter_roll(m, now, 2, t->dt);
        }
    }
    struct meter *h = meter_find(&t->m_hdr, "hdr", 3, true);
    uint64_t now[3] = {st->frames, st->rpc_calls, st->bytes};
    if (h) meter_roll(h, now, 3, t->dt);
}

int view_most_useful(struct tui *t)
{
    /* NFSv4.1+: its sessions; NFSv3 and v4.0 have none, their connections
     * carry the latency and errors per client instead */
    if (ns_analyzer_session_count(t->a)) return V_SESSIONS;
    if (ns_analyzer_conn_count(t->a)) return V_CONNS;
    return V_SESSIONS;
}

const char *view_empty(struct tui *t, char *buf, size_t n)
{
    static const char *const what[V_COUNT] = {
        [V_SESSIONS] = "no NFSv4.1 session", [V_CONNS] = "no connection", [V_FINDINGS] = "no finding",
        [V_OPS] = "no NFS operation",        [V_SLOTS] = "no slot",        [V_UDP] = "no RPC over UDP",
        [V_CLIENTS] = "no client",
    };
    if (t->filter[0] && t->table.n) snprintf(buf, n, "(no row matches the filter \"%s\")", t->filter);
    else if (!t->st.ended) snprintf(buf, n, "(%s yet)", what[t->view]);
    else if (t->view == V_SESSIONS)
        snprintf(buf, n, "(%s in this capture: NFSv3 and NFSv4.0 have none; see 2 Connections, 7 Clients)",
                 what[t->view]);
    else snprintf(buf, n, "(%s in this capture)", what[t->view]);
    return buf;
}
