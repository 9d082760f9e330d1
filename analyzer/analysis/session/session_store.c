/* The session and client tables: entries in fixed places (session_pool.c),
 * found by hash, listed in order of first sighting, capped. Full: sessions
 * lose a sixteenth (destroyed ones first, then the least recently active),
 * clients the least recently active one; both counted. */
#include <stdlib.h>

#include "session_int.h"

#define STORE_CHUNK 16 /* entries per chunk: small, so a tight cap still holds some */

static uint32_t sid_hash(const uint8_t *sid)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < NS_SESSIONID_LEN; i++) h = (h ^ sid[i]) * 16777619u;
    return h;
}

static uint32_t cid_hash(uint64_t id)
{
    id ^= id >> 33;
    id *= 0xff51afd7ed558ccdull;
    id ^= id >> 33;
    return (uint32_t)id;
}

void store_init(struct sess_model *m)
{
    spool_init(&m->sessions, m->mc, sizeof(struct sess), STORE_CHUNK, SESS_SESSIONS_MAX);
    spool_init(&m->clients, m->mc, sizeof(struct sess_client), STORE_CHUNK, SESS_CLIENTS_MAX);
}

static void slots_release(struct sess_model *m, struct sess *s)
{
    slot_tab_release(m, &s->fore);
    s->v.slots = NULL;
    bc_release(m, s);
}

void store_free(struct sess_model *m)
{
    for (size_t i = 0; i < sess_nsessions(m); i++) slots_release(m, sess_at(m, i));
    for (size_t i = 0; i < sess_nclients(m); i++) dg_release(m, sess_client_at(m, i));
    deleg_free(m);
    memcap_give(m->mc, MEM_SESSIONS, m->shash_size * sizeof *m->shash + m->chash_size * sizeof *m->chash);
    free(m->shash);
    free(m->chash);
    m->last_found = NULL;
    spool_free(&m->sessions);
    spool_free(&m->clients);
}

/* ---- dirty list ---- */

void sess_dirty(struct sess_model *m, struct sess *s)
{
    if (s->dirty) return;
    s->dirty = true;
    s->dprev = NULL;
    s->dnext = m->dirty;
    if (m->dirty) m->dirty->dprev = s;
    m->dirty = s;
}

static void undirty(struct sess_model *m, struct sess *s)
{
    if (!s->dirty) return;
    if (s->dprev) s->dprev->dnext = s->dnext;
    else m->dirty = s->dnext;
    if (s->dnext) s->dnext->dprev = s->dprev;
    s->dirty = false;
    s->dprev = s->dnext = NULL;
}

struct sess *sess_take_dirty(struct sess_model *m)
{
    struct sess *s = m->dirty;
    if (s) undirty(m, s);
    return s;
}

/* ---- hash tables: buckets double as entries grow (never shrink) ---- */

/* Buckets for n entries: a new zeroed array when the current one is too
 * small, else NULL (keep it; also when out of memory: chains get longer). */
static void *new_buckets(struct sess_model *m, size_t n, size_t cur, size_t *size)
{
    size_t want = 64;
    while (want < n * 2) want *= 2;
    if (want <= cur) return NULL;
    if (!memcap_take(m->mc, MEM_SESSIONS, want * sizeof(void *))) return NULL;
    void *b = calloc(want, sizeof(void *));
    if (!b) { memcap_give(m->mc, MEM_SESSIONS, want * sizeof(void *)); return NULL; }
    *size = want;
    return b;
}

/* Room for n sessions (before the n-th is added). */
static void shash_grow(struct sess_model *m, size_t n)
{
    size_t size;
    struct sess **nb = new_buckets(m, n, m->shash_size, &size);
    if (!nb) return;
    memcap_give(m->mc, MEM_SESSIONS, m->shash_size * sizeof *m->shash);
    free(m->shash);
    m->shash = nb;
    m->shash_size = size;
    for (size_t i = 0; i < sess_nsessions(m); i++) {
        struct sess *s = sess_at(m, i);
        struct sess **b = &m->shash[sid_hash(s->v.sessionid) & (size - 1)];
        s->hnext = *b;
        *b = s;
    }
}

static void shash_unlink(struct sess_model *m, struct sess *s)
{
    if (m->last_found == s) m->last_found = NULL;
    struct sess **p = &m->shash[sid_hash(s->v.sessionid) & (m->shash_size - 1)];
    while (*p && *p != s) p = &(*p)->hnext;
    if (*p) *p = s->hnext;
}

static void chash_grow(struct sess_model *m, size_t n)
{
    size_t size;
    struct sess_client **nb = new_buckets(m, n, m->chash_size, &size);
    if (!nb) return;
    memcap_give(m->mc, MEM_SESSIONS, m->chash_size * sizeof *m->chash);
    free(m->chash);
    m->chash = nb;
    m->chash_size = size;
    for (size_t i = 0; i < sess_nclients(m); i++) {
        struct sess_client *c = sess_client_at(m, i);
        struct sess_client **b = &m->chash[cid_hash(c->v.clientid) & (size - 1)];
        c->hnext = *b;
        *b = c;
    }
}

static void chash_unlink(struct sess_model *m, struct sess_client *c)
{
    struct sess_client **p = &m->chash[cid_hash(c->v.clientid) & (m->chash_size - 1)];
    while (*p && *p != c) p = &(*p)->hnext;
    if (*p) *p = c->hnext;
}

/* ---- sessions ---- */

struct sess *sess_find(struct sess_model *m, const uint8_t *sid)
{
    /* A call and its reply look their session up several times in a row. */
    struct sess *s = m->last_found;
    if (s && memcmp(s->v.sessionid, sid, NS_SESSIONID_LEN) == 0) return s;
    if (!m->shash_size) return NULL;
    for (s = m->shash[sid_hash(sid) & (m->shash_size - 1)]; s; s = s->hnext)
        if (memcmp(s->v.sessionid, sid, NS_SESSIONID_LEN) == 0) return m->last_found = s;
    return NULL;
}

/* Kept first: live before destroyed, then the most recently active, then
 * the oldest (first sighting, then creation). */
static int cmp_keep(const void *pa, const void *pb)
{
    const struct sess *sa = *(const struct sess *const *)pa, *sb = *(const struct sess *const *)pb;
    const struct ns_session_view *a = &sa->v, *b = &sb->v;
    if (a->destroyed != b->destroyed) return a->destroyed ? 1 : -1;
    if (a->last_ts_ns != b->last_ts_ns) return a->last_ts_ns > b->last_ts_ns ? -1 : 1;
    if (a->first_ts_ns != b->first_ts_ns) return a->first_ts_ns < b->first_ts_ns ? -1 : 1;
    return sa->order < sb->order ? -1 : sa->order > sb->order;
}

static bool sess_dead(const void *e) { return ((const struct sess *)e)->evict; }

static void evict_sessions(struct sess_model *m)
{
    size_t n = sess_nsessions(m);
    struct sess **rank = (struct sess **)m->sessions.scratch;
    for (size_t i = 0; i < n; i++) rank[i] = sess_at(m, i);
    qsort(rank, n, sizeof *rank, cmp_keep);
    size_t drop = n / 16 ? n / 16 : 1;
    for (size_t i = n - drop; i < n; i++) {
        struct sess *s = rank[i];
        slots_update_fractions(s);
        sf_slot_limited(m, s, 0, 0); /* settle its SLOT_LIMITED before it goes */
        slots_release(m, s);
        shash_unlink(m, s);
        undirty(m, s);
        s->evict = true;
    }
    spool_sweep(&m->sessions, sess_dead);
    m->st.sessions_evicted += drop;
}

struct sess *sess_get(struct sess_model *m, const uint8_t *sid, int64_t ts)
{
    struct sess *s = sess_find(m, sid);
    if (s) return s;
    if ((sess_nsessions(m) + 1) * 2 > m->shash_size) shash_grow(m, sess_nsessions(m) + 1);
    if (!m->shash_size) return NULL; /* no table to find it by */
    s = spool_alloc(&m->sessions);
    if (!s && sess_nsessions(m)) {
        evict_sessions(m);
        s = spool_alloc(&m->sessions);
    }
    if (!s) return NULL;
    s->order = m->next_order++;
    memcpy(s->v.sessionid, sid, NS_SESSIONID_LEN);
    s->v.mid_capture = true;
    s->v.first_ts_ns = s->v.last_ts_ns = ts;
    bc_init(s);
    struct sess **b = &m->shash[sid_hash(sid) & (m->shash_size - 1)];
    s->hnext = *b;
    *b = s;
    return s;
}

/* ---- clients ---- */

struct sess_client *sess_client_find(struct sess_model *m, uint64_t clientid)
{
    if (!m->chash_size) return NULL;
    for (struct sess_client *c = m->chash[cid_hash(clientid) & (m->chash_size - 1)]; c; c = c->hnext)
        if (c->v.clientid == clientid) return c;
    return NULL;
}

static bool client_dead(const void *e) { return ((const struct sess_client *)e)->evict; }

struct sess_client *sess_client_get(struct sess_model *m, uint64_t clientid, int64_t ts)
{
    struct sess_client *cl = sess_client_find(m, clientid);
    if (cl) return cl;
    if ((sess_nclients(m) + 1) * 2 > m->chash_size) chash_grow(m, sess_nclients(m) + 1);
    if (!m->chash_size) return NULL;
    cl = spool_alloc(&m->clients);
    if (!cl && sess_nclients(m)) {
        struct sess_client *old = sess_client_at(m, 0); /* least recently active; ties: the oldest */
        for (size_t i = 1; i < sess_nclients(m); i++)
            if (sess_client_at(m, i)->v.last_ts_ns < old->v.last_ts_ns) old = sess_client_at(m, i);
        chash_unlink(m, old);
        dg_release(m, old);
        old->evict = true;
        spool_sweep(&m->clients, client_dead);
        m->st.clients_evicted++;
        cl = spool_alloc(&m->clients);
    }
    if (!cl) return NULL;
    cl->v.clientid = clientid;
    dg_init(cl);
    cl->lease.lease_time_s = (uint32_t)(m->cfg.lease_time_ns / 1000000000);
    cl->v.first_ts_ns = cl->v.last_ts_ns = ts;
    struct sess_client **b = &m->chash[cid_hash(clientid) & (m->chash_size - 1)];
    cl->hnext = *b;
    *b = cl;
    return cl;
}
