/* Storms of one error kind on one session or client (doc/findings.md): a
 * cluster of errors at most W apart becomes a <K>_STORM finding once N of
 * them fall within W; the finding then counts the whole cluster. The store
 * is told of every occurrence it keeps a frame of: when the cluster becomes
 * a storm, the first 8 and the last N errors (the ring) before it, then each
 * one after. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "session_int.h"

#define NS_PER_S 1000000000ll

static const struct {
    const char *kind, *status;
    const char *rfc;
} SK[SK_N] = {
    [SK_CONN_NOT_BOUND] = {"CONN_NOT_BOUND_STORM", "NFS4ERR_CONN_NOT_BOUND_TO_SESSION", "RFC 8881 2.10.3.1, 18.34"},
    [SK_SEQ_MISORDERED] = {"SEQ_MISORDERED_STORM", "NFS4ERR_SEQ_MISORDERED", "RFC 8881 2.10.6.1"},
    [SK_BADSESSION] = {"BADSESSION_STORM", "NFS4ERR_BADSESSION", "RFC 8881 2.10.13"},
    [SK_DEADSESSION] = {"DEADSESSION_STORM", "NFS4ERR_DEADSESSION", "RFC 8881 2.10.13"},
    [SK_BADSLOT] = {"BADSLOT_STORM", "NFS4ERR_BADSLOT", "RFC 8881 18.46.3"},
    [SK_DELAY] = {"DELAY_STORM", "NFS4ERR_DELAY", "RFC 8881 15.1.1.3"},
};

/* What a storm's message says beyond the finding's count, times and
 * connections (kept by the store; rendered by storm_render on reading). */
struct storm_state {
    uint8_t kind;               /* enum storm_kind */
    uint64_t peak_per_sec;
};
_Static_assert(sizeof(struct storm_state) <= FINDINGS_STATE_MAX, "storm_state too large");

static void storm_render(const struct ns_finding *f, const void *state, char *msg)
{
    const struct storm_state *st = state;
    double span = (double)(f->last_ts_ns - f->first_ts_ns) / 1e9;
    int n = snprintf(msg, NS_FINDING_MSG_MAX, "%" PRIu64 " %s replies in %.1f s (peak %" PRIu64 " per second) on ",
                     f->count, SK[st->kind].status, span, st->peak_per_sec);
    size_t o = n > 0 ? (size_t)n : 0;
    for (unsigned i = 0; i < f->nconns && o < NS_FINDING_MSG_MAX; i++)
        o += (size_t)snprintf(msg + o, NS_FINDING_MSG_MAX - o, "%sc%u", i ? "," : "", f->conns[i]);
    if (o < NS_FINDING_MSG_MAX)
        snprintf(msg + o, NS_FINDING_MSG_MAX - o,
                 ": the client keeps sending requests the server refuses; see the %s finding for the cause.",
                 st->kind == SK_CONN_NOT_BOUND    ? "CONN_NOT_BOUND"
                 : st->kind == SK_SEQ_MISORDERED ? "SEQ_MISORDERED"
                                                  : "matching");
}

static void storm_msg(struct sess_model *m, const struct storm *st, const struct ns_finding *f)
{
    struct storm_state *ss = findings_state(m->fs, f);
    ss->kind = st->kind;
    ss->peak_per_sec = st->peak_per_sec;
}

/* The index slot of (kind, k): its tracker's, or the empty one where it goes. */
static uint32_t *storm_ix_slot(uint32_t *ix, size_t size, const struct storm *storms, uint8_t kind,
                               const struct sess_key *k)
{
    size_t i = sf_key_hash(kind, k) & (size - 1);
    while (ix[i] && !(storms[ix[i] - 1].kind == kind && sf_key_eq(&storms[ix[i] - 1].key, k))) i = (i + 1) & (size - 1);
    return &ix[i];
}

/* The index sized for storms_cap trackers (at most half full). Only a
 * shortcut: without memory for it the trackers are scanned, as before. */
static void storm_ix_fit(struct sess_model *m)
{
    size_t size = 16;
    while (size < 2 * m->storms_cap) size *= 2;
    if (size > m->storm_ix_size) {
        bool took = memcap_take(m->mc, MEM_SESSIONS, size * sizeof *m->storm_ix);
        uint32_t *ix = took ? calloc(size, sizeof *ix) : NULL;
        if (took && !ix) memcap_give(m->mc, MEM_SESSIONS, size * sizeof *ix);
        memcap_give(m->mc, MEM_SESSIONS, m->storm_ix_size * sizeof *m->storm_ix);
        free(m->storm_ix);
        m->storm_ix = ix;
        m->storm_ix_size = ix ? size : 0;
    } else if (m->storm_ix) {
        memset(m->storm_ix, 0, m->storm_ix_size * sizeof *m->storm_ix);
    }
    for (size_t i = 0; m->storm_ix && i < m->nstorms; i++)
        *storm_ix_slot(m->storm_ix, m->storm_ix_size, m->storms, m->storms[i].kind, &m->storms[i].key) =
            (uint32_t)i + 1;
}

/* The tracker of (kind, k), added if new (NULL: table full or no memory, counted). */
static struct storm *storm_get(struct sess_model *m, enum storm_kind kind, const struct sess_key *k)
{
    uint32_t *slot = NULL;
    if (m->storm_ix) {
        slot = storm_ix_slot(m->storm_ix, m->storm_ix_size, m->storms, (uint8_t)kind, k);
        if (*slot) return &m->storms[*slot - 1];
    } else {
        for (size_t i = 0; i < m->nstorms; i++)
            if (m->storms[i].kind == kind && sf_key_eq(&m->storms[i].key, k)) return &m->storms[i];
    }
    uint32_t n = m->cfg.storm_count;
    size_t ring_bytes = n * (sizeof(int64_t) + sizeof(uint64_t));
    m->st.rules_dropped++; /* undone below once the tracker exists */
    if (m->nstorms == SESS_STORMS_MAX) return NULL;
    if (m->nstorms == m->storms_cap) {
        size_t nc = m->storms_cap ? m->storms_cap * 2 : 8;
        if (!memcap_take(m->mc, MEM_SESSIONS, (nc - m->storms_cap) * sizeof *m->storms)) return NULL;
        struct storm *nv = realloc(m->storms, nc * sizeof *nv);
        if (!nv) { memcap_give(m->mc, MEM_SESSIONS, (nc - m->storms_cap) * sizeof *m->storms); return NULL; }
        m->storms = nv;
        m->storms_cap = nc;
        slot = NULL; /* the index is rebuilt below */
    }
    if (!memcap_take(m->mc, MEM_SESSIONS, ring_bytes)) return NULL;
    int64_t *ring = calloc(1, ring_bytes);
    if (!ring) { memcap_give(m->mc, MEM_SESSIONS, ring_bytes); return NULL; }
    struct storm *st = &m->storms[m->nstorms++];
    memset(st, 0, sizeof *st);
    st->kind = (uint8_t)kind;
    st->key = *k;
    st->ring = ring;
    st->ring_frame = (uint64_t *)(ring + n);
    m->st.rules_dropped--;
    if (slot) *slot = (uint32_t)m->nstorms;
    else storm_ix_fit(m);
    return st;
}

/* The cluster just became a storm: its finding, and the store told of each
 * occurrence kept (the first 8 of the cluster and the ring), in frame order. */
static void storm_raise(struct sess_model *m, struct storm *st, enum storm_kind kind, const struct sess_key *k)
{
    struct ns_finding *f = findings_add(m->fs, SK[kind].kind, NS_SEV_CRITICAL, st->acc.first_ts_ns);
    if (!f) { st->fidx = SIZE_MAX; return; }
    st->fidx = findings_index(m->fs, f);
    f->last_ts_ns = st->acc.last_ts_ns;
    f->count = st->acc.count;
    f->nframes = st->acc.nframes;
    memcpy(f->frames, st->acc.frames, sizeof f->frames);
    f->nconns = st->acc.nconns;
    memcpy(f->conns, st->acc.conns, sizeof f->conns);
    sf_set_subject(m, f, k);
    finding_set_rfc(f, SK[kind].rfc);
    findings_set_renderer(m->fs, f, storm_render);
    storm_msg(m, st, f);
    uint32_t n = m->cfg.storm_count; /* the ring is full: oldest at ring_pos */
    unsigned a = 0, b = 0;
    uint64_t last = 0;
    while (a < st->acc.nframes || b < n) { /* both ascending: merge, each frame once */
        uint64_t fa = a < st->acc.nframes ? st->acc.frames[a] : UINT64_MAX;
        uint64_t fb = b < n ? st->ring_frame[(st->ring_pos + b) % n] : UINT64_MAX;
        uint64_t fr = fa < fb ? fa : fb;
        if (fa == fr) a++;
        if (fb == fr) b++;
        if (fr && fr != last) findings_touch(m->fs, f, fr);
        last = fr;
    }
}

void storm_note(struct sess_model *m, enum storm_kind kind, const struct sess_key *k, int64_t ts, uint64_t frame,
                uint32_t conn)
{
    struct storm *st = storm_get(m, kind, k);
    if (!st) return;
    uint32_t n = m->cfg.storm_count;
    if (st->cluster_count && ts - st->cluster_last > m->cfg.storm_window_ns) { /* a new cluster */
        st->cluster_count = 0;
        st->ring_n = st->ring_pos = 0;
        st->is_storm = false;
        st->peak_per_sec = 0;
        memset(&st->acc, 0, sizeof st->acc);
    }
    if (!st->cluster_count) {
        st->cluster_first = st->sec_start = ts;
        st->sec_count = 0;
        st->acc.first_ts_ns = st->acc.last_ts_ns = ts;
    }
    st->cluster_count++;
    st->cluster_last = ts;
    while (ts - st->sec_start >= NS_PER_S) { /* 1-second buckets from the cluster's first error */
        st->sec_start += ((ts - st->sec_start) / NS_PER_S) * NS_PER_S;
        st->sec_count = 0;
    }
    if (++st->sec_count > st->peak_per_sec) st->peak_per_sec = st->sec_count;
    if (st->ring_n < n) {
        st->ring[st->ring_n] = ts;
        st->ring_frame[st->ring_n++] = frame;
    } else {
        st->ring[st->ring_pos] = ts;
        st->ring_frame[st->ring_pos] = frame;
        st->ring_pos = (st->ring_pos + 1) % n;
    }
    finding_note(&st->acc, ts, frame, conn);
    if (st->is_storm) {
        struct ns_finding *f = findings_get(m->fs, st->fidx);
        if (f) {
            finding_note(f, ts, frame, conn);
            storm_msg(m, st, f);
            findings_touch(m->fs, f, frame);
        }
        return;
    }
    int64_t oldest = st->ring_n < n ? st->ring[0] : st->ring[st->ring_pos];
    if (st->ring_n < n || ts - oldest > m->cfg.storm_window_ns) return;
    st->is_storm = true;
    storm_raise(m, st, kind, k);
}

void storms_free(struct sess_model *m)
{
    for (size_t i = 0; i < m->nstorms; i++) {
        memcap_give(m->mc, MEM_SESSIONS, m->cfg.storm_count * (sizeof(int64_t) + sizeof(uint64_t)));
        free(m->storms[i].ring);
    }
    memcap_give(m->mc, MEM_SESSIONS, m->storms_cap * sizeof *m->storms);
    free(m->storms);
    memcap_give(m->mc, MEM_SESSIONS, m->storm_ix_size * sizeof *m->storm_ix);
    free(m->storm_ix);
}
