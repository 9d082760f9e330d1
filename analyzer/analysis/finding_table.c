#include "finding_table.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define FINDINGS_MAX 100000

/* What the store keeps beside each finding to render its message. */
struct fmeta {
    findings_render_fn render; /* NULL: the analysis writes the message */
    bool stale;                /* changed since the message was rendered */
    _Alignas(max_align_t) unsigned char state[FINDINGS_STATE_MAX];
};

/* The arrays view and changed, and each finding's message text, are caches
 * that reading fills (findings_sorted, findings_changed, findings_render):
 * their content is a function of the findings, so reading in any order
 * gives the same answers. They are reached through pointers, so the read
 * functions take the store as const. */
struct findings {
    struct memcap *mc;
    struct ns_finding *v;
    struct fmeta *meta;
    size_t n, cap;
    const struct ns_finding **view;
    const struct ns_finding **changed; /* findings_changed's array: its own, so it leaves the view as it was */
    size_t view_cap;
    uint64_t dropped;
    uint64_t generation;
    findings_listener_fn listener;
    void *listener_ctx;
};

const char *ns_severity_name(uint8_t sev)
{
    static const char *const names[] = {"info", "warning", "error", "critical"};
    return sev < 4 ? names[sev] : "unknown";
}

struct findings *findings_new(struct memcap *mc)
{
    struct findings *f = calloc(1, sizeof *f);
    if (f) f->mc = mc;
    return f;
}

void findings_free(struct findings *f)
{
    if (!f) return;
    memcap_give(f->mc, MEM_SESSIONS,
                f->cap * (sizeof *f->v + sizeof *f->meta) + f->view_cap * (sizeof *f->view + sizeof *f->changed));
    free(f->v);
    free(f->meta);
    free(f->view);
    free(f->changed);
    free(f);
}

struct ns_finding *findings_add(struct findings *f, const char *kind, uint8_t severity, int64_t ts_ns)
{
    if (f->n == f->cap) {
        size_t ncap = f->cap ? f->cap * 2 : 16;
        if (ncap > FINDINGS_MAX) ncap = FINDINGS_MAX;
        /* the findings and the view front ends sort them in, grown together:
         * a full pool must not leave a report with no findings at the end */
        size_t grow = (ncap - f->cap) * (sizeof *f->v + sizeof *f->view + sizeof *f->changed + sizeof *f->meta);
        struct ns_finding *nv = NULL;
        if (ncap > f->cap && memcap_take(f->mc, MEM_SESSIONS, grow)) {
            nv = realloc(f->v, ncap * sizeof *nv);
            if (nv) f->v = nv;
            const struct ns_finding **nw = nv ? realloc(f->view, ncap * sizeof *nw) : NULL;
            if (nw) f->view = nw;
            const struct ns_finding **nc = nw ? realloc(f->changed, ncap * sizeof *nc) : NULL;
            if (nc) f->changed = nc;
            struct fmeta *nm = nc ? realloc(f->meta, ncap * sizeof *nm) : NULL;
            if (nm) f->meta = nm;
            else nv = NULL;
            if (!nv) memcap_give(f->mc, MEM_SESSIONS, grow);
        }
        if (!nv) { f->dropped++; return NULL; }
        f->cap = f->view_cap = ncap;
    }
    struct fmeta *mt = &f->meta[f->n];
    mt->render = NULL;
    mt->stale = false;
    memset(mt->state, 0, sizeof mt->state);
    struct ns_finding *x = &f->v[f->n++];
    memset(x, 0, sizeof *x);
    strncpy(x->kind, kind, sizeof x->kind - 1);
    x->severity = severity;
    x->first_ts_ns = x->last_ts_ns = ts_ns;
    x->id = (uint32_t)f->n;
    x->generation = ++f->generation;
    return x;
}

size_t findings_index(const struct findings *f, const struct ns_finding *x) { return (size_t)(x - f->v); }
struct ns_finding *findings_get(struct findings *f, size_t i) { return i < f->n ? &f->v[i] : NULL; }

/* Insert v into a small sorted set of at most cap distinct values. */
#define SORTED_INSERT(arr, n, cap, v)                                           \
    do {                                                                         \
        unsigned _i = 0;                                                         \
        while (_i < (n) && (arr)[_i] < (v)) _i++;                                \
        if (_i < (n) && (arr)[_i] == (v)) break;                                 \
        if ((n) == (cap)) { if (_i == (n)) break; (n)--; } /* keep the lowest */ \
        memmove(&(arr)[_i + 1], &(arr)[_i], ((n) - _i) * sizeof (arr)[0]);      \
        (arr)[_i] = (v);                                                         \
        (n)++;                                                                   \
    } while (0)

void finding_add_frame(struct ns_finding *x, uint64_t frame)
{
    if (frame) SORTED_INSERT(x->frames, x->nframes, NS_FINDING_FRAMES, frame);
}

void finding_add_conn(struct ns_finding *x, uint32_t conn_id)
{
    if (conn_id) SORTED_INSERT(x->conns, x->nconns, NS_FINDING_CONNS, conn_id);
}

void finding_set_rfc(struct ns_finding *x, const char *rfc)
{
    strncpy(x->rfc, rfc, sizeof x->rfc - 1);
    x->rfc[sizeof x->rfc - 1] = 0;
}

void finding_note(struct ns_finding *x, int64_t ts_ns, uint64_t frame, uint32_t conn_id)
{
    x->count++;
    if (ts_ns < x->first_ts_ns) x->first_ts_ns = ts_ns;
    if (ts_ns > x->last_ts_ns) x->last_ts_ns = ts_ns;
    finding_add_frame(x, frame);
    finding_add_conn(x, conn_id);
}

static int cmp_finding(const void *pa, const void *pb)
{
    const struct ns_finding *a = *(const struct ns_finding *const *)pa, *b = *(const struct ns_finding *const *)pb;
    if (a->severity != b->severity) return a->severity > b->severity ? -1 : 1;
    if (a->first_ts_ns != b->first_ts_ns) return a->first_ts_ns < b->first_ts_ns ? -1 : 1;
    int c = strcmp(a->kind, b->kind);
    if (c) return c;
    uint64_t fa = a->nframes ? a->frames[0] : 0, fb = b->nframes ? b->frames[0] : 0;
    if (fa != fb) return fa < fb ? -1 : 1;
    c = strcmp(a->message, b->message);
    if (c) return c;
    return a->id < b->id ? -1 : a->id > b->id; /* a total order: the same view however often it is sorted */
}

/* The view array holds every finding: grown with them in findings_add. */
static bool view_fit(const struct findings *f) { return f->view_cap >= f->n; }

void findings_set_renderer(struct findings *f, const struct ns_finding *x, findings_render_fn fn)
{
    struct fmeta *mt = &f->meta[x - f->v];
    mt->render = fn;
    mt->stale = fn != NULL;
}

void *findings_state(struct findings *f, const struct ns_finding *x) { return f->meta[x - f->v].state; }

const struct ns_finding *findings_render(const struct findings *f, const struct ns_finding *x)
{
    size_t i = (size_t)(x - f->v);
    struct fmeta *mt = &f->meta[i];
    if (mt->stale) { /* a cache of what the numbers say: the store is not changed */
        mt->render(x, mt->state, f->v[i].message);
        mt->stale = false;
    }
    return x;
}

size_t findings_sorted(const struct findings *f, const struct ns_finding *const **out)
{
    *out = NULL;
    if (!f->n || !view_fit(f)) return 0;
    for (size_t i = 0; i < f->n; i++) f->view[i] = findings_render(f, &f->v[i]); /* the sort reads messages */
    qsort(f->view, f->n, sizeof *f->view, cmp_finding);
    *out = f->view;
    return f->n;
}

size_t findings_changed(const struct findings *f, uint64_t gen, const struct ns_finding *const **out)
{
    *out = NULL;
    if (!f->n || !view_fit(f)) return 0;
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].generation > gen) f->changed[n++] = findings_render(f, &f->v[i]);
    *out = f->changed;
    return n;
}

void findings_set_listener(struct findings *f, findings_listener_fn fn, void *ctx)
{
    f->listener = fn;
    f->listener_ctx = ctx;
}

void findings_touch(struct findings *f, struct ns_finding *x, uint64_t frame)
{
    x->generation = ++f->generation;
    struct fmeta *mt = &f->meta[x - f->v];
    mt->stale = mt->render != NULL;
    if (f->listener) f->listener(f->listener_ctx, x, frame);
}

uint64_t findings_generation(const struct findings *f) { return f->generation; }

const struct ns_finding *findings_by_id(const struct findings *f, uint32_t id)
{
    return id >= 1 && id <= f->n ? findings_render(f, &f->v[id - 1]) : NULL;
}

uint64_t findings_dropped(const struct findings *f) { return f->dropped; }
