#include "path_map.h"

#include <stdlib.h>
#include <string.h>

enum { PN_ROOT = 1, PN_NAMED = 2, PN_CUT = 4 };

struct path_node {
    uint32_t parent, parent_gen; /* WHO_NONE: no parent (a root, or unknown) */
    uint32_t parent_hash;        /* the parent's nfs.fh.hash, shown when it is gone */
    uint32_t rhash, rnext;       /* (parent, name) index: find a child by name */
    uint8_t flags;
    uint8_t name_len;
    char name[PATH_NAME_KEEP];   /* PN_ROOT: the export's path ("" for "/") */
};

struct path_map {
    struct who_table t;
    uint32_t *rbucket;           /* the (parent, name) index, t.mask + 1 buckets */
    uint32_t root;               /* the pseudo root's node (WHO_NONE: not made yet) */
};

static const uint8_t ROOT_KEY[1] = {0}; /* no NFS handle is one zero byte */

static struct path_node *pn(const struct path_map *pm, uint32_t i) { return who_payload(&pm->t, i); }

uint32_t path_fh_hash(const uint8_t *fh, uint32_t len)
{
    uint32_t c = 0xffffffffu;
    for (uint32_t i = 0; i < len; i++) {
        c ^= fh[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    }
    return ~c;
}

static uint32_t child_hash(uint32_t dir, uint32_t gen, const uint8_t *name, uint32_t n)
{
    uint8_t k[8 + PATH_NAME_KEEP];
    memcpy(k, &dir, 4);
    memcpy(k + 4, &gen, 4);
    memcpy(k + 8, name, n);
    return who_hash(k, 8 + n);
}

static void runlink(struct path_map *pm, uint32_t i)
{
    struct path_node *p = pn(pm, i);
    if (!(p->flags & PN_NAMED) || (p->flags & PN_ROOT)) return;
    uint32_t *at = &pm->rbucket[p->rhash & pm->t.mask];
    while (*at != WHO_NONE && *at != i) at = &pn(pm, *at)->rnext;
    if (*at == i) *at = p->rnext;
    p->flags &= (uint8_t)~PN_NAMED;
}

static void on_evict(void *ctx, uint32_t i) { runlink(ctx, i); }

struct path_map *path_map_new(struct memcap *mc, uint32_t max)
{
    struct path_map *pm = calloc(1, sizeof *pm);
    if (!pm) return NULL;
    if (!who_table_init(&pm->t, mc, sizeof(struct path_node), max ? max : PATH_MAP_MAX, 4)) {
        free(pm);
        return NULL;
    }
    size_t nb = (size_t)pm->t.mask + 1;
    if (mc && !memcap_take(mc, MEM_SESSIONS, nb * sizeof *pm->rbucket)) {
        who_table_free(&pm->t);
        free(pm);
        return NULL;
    }
    pm->rbucket = malloc(nb * sizeof *pm->rbucket);
    if (!pm->rbucket) {
        if (mc) memcap_give(mc, MEM_SESSIONS, nb * sizeof *pm->rbucket);
        who_table_free(&pm->t);
        free(pm);
        return NULL;
    }
    memset(pm->rbucket, 0xff, nb * sizeof *pm->rbucket);
    pm->t.on_evict = on_evict;
    pm->t.evict_ctx = pm;
    pm->root = WHO_NONE;
    return pm;
}

void path_map_free(struct path_map *pm)
{
    if (!pm) return;
    if (pm->t.mc) memcap_give(pm->t.mc, MEM_SESSIONS, ((size_t)pm->t.mask + 1) * sizeof *pm->rbucket);
    free(pm->rbucket);
    who_table_free(&pm->t);
    free(pm);
}

static uint32_t node_get(struct path_map *pm, const uint8_t *fh, uint32_t len)
{
    bool fresh;
    uint32_t i = who_get(&pm->t, fh, len, who_hash(fh, len), &fresh);
    if (i != WHO_NONE && fresh) pn(pm, i)->parent = WHO_NONE;
    return i;
}

uint32_t path_map_node(struct path_map *pm, const uint8_t *fh, uint32_t len)
{
    if (!len || len > WHO_KEY_MAX) return WHO_NONE;
    return node_get(pm, fh, len);
}

uint32_t path_map_find(const struct path_map *pm, const uint8_t *fh, uint32_t len)
{
    if (!len || len > WHO_KEY_MAX) return WHO_NONE;
    return who_find((struct who_table *)&pm->t, fh, len, who_hash(fh, len), false);
}

uint32_t path_map_root(struct path_map *pm)
{
    uint32_t i = node_get(pm, ROOT_KEY, sizeof ROOT_KEY);
    if (i != WHO_NONE) pn(pm, i)->flags = PN_ROOT;
    return i;
}

bool path_map_live(const struct path_map *pm, uint32_t node, uint32_t gen)
{
    return node != WHO_NONE && who_live(&pm->t, node, gen);
}

uint32_t path_map_gen(const struct path_map *pm, uint32_t node) { return who_rec(&pm->t, node)->gen; }

uint32_t path_map_parent(const struct path_map *pm, uint32_t node)
{
    if (node == WHO_NONE) return WHO_NONE;
    const struct path_node *p = pn(pm, node);
    return path_map_live(pm, p->parent, p->parent_gen) ? p->parent : WHO_NONE;
}

/* A name without its "/" ends, "." or empty components are left as sent. */
void path_map_bind(struct path_map *pm, const uint8_t *fh, uint32_t len, uint32_t dir, const uint8_t *name,
                   uint32_t nlen, bool cut)
{
    if (dir == WHO_NONE || !nlen) return;
    uint32_t dir_gen = who_rec(&pm->t, dir)->gen;
    uint32_t i = path_map_node(pm, fh, len);
    if (i == WHO_NONE || i == dir || !path_map_live(pm, dir, dir_gen)) return; /* dir evicted to make room */
    struct path_node *p = pn(pm, i);
    if (p->flags & PN_ROOT) return; /* an export's root keeps its path */
    runlink(pm, i);
    if (nlen > PATH_NAME_KEEP) {
        nlen = PATH_NAME_KEEP;
        cut = true;
    }
    p->parent = dir;
    p->parent_gen = dir_gen;
    const struct who_head *dh = who_rec(&pm->t, dir);
    p->parent_hash = path_fh_hash(dh->key, dh->key_len);
    memcpy(p->name, name, nlen);
    p->name_len = (uint8_t)nlen;
    p->flags = (uint8_t)(PN_NAMED | (cut ? PN_CUT : 0));
    p->rhash = child_hash(dir, dir_gen, name, nlen);
    p->rnext = pm->rbucket[p->rhash & pm->t.mask];
    pm->rbucket[p->rhash & pm->t.mask] = i;
}

void path_map_set_root(struct path_map *pm, const uint8_t *fh, uint32_t len, const uint8_t *path, uint32_t plen)
{
    uint32_t i = path_map_node(pm, fh, len);
    if (i == WHO_NONE) return;
    runlink(pm, i);
    struct path_node *p = pn(pm, i);
    while (plen > 1 && path[plen - 1] == '/') plen--; /* "/export/" is "/export" */
    if (plen == 1 && path[0] == '/') plen = 0;
    if (plen > PATH_NAME_KEEP) plen = PATH_NAME_KEEP;
    memcpy(p->name, path, plen);
    p->name_len = (uint8_t)plen;
    p->parent = WHO_NONE;
    p->flags = PN_ROOT;
}

static uint32_t child(const struct path_map *pm, uint32_t dir, const uint8_t *name, uint32_t nlen)
{
    if (dir == WHO_NONE || !nlen || nlen > PATH_NAME_KEEP) return WHO_NONE;
    uint32_t gen = who_rec(&pm->t, dir)->gen;
    uint32_t h = child_hash(dir, gen, name, nlen);
    for (uint32_t i = pm->rbucket[h & pm->t.mask]; i != WHO_NONE; i = pn(pm, i)->rnext) {
        const struct path_node *p = pn(pm, i);
        if (p->rhash == h && p->parent == dir && p->parent_gen == gen && p->name_len == nlen &&
            memcmp(p->name, name, nlen) == 0)
            return i;
    }
    return WHO_NONE;
}

void path_map_unlink(struct path_map *pm, uint32_t dir, const uint8_t *name, uint32_t nlen)
{
    uint32_t i = child(pm, dir, name, nlen);
    if (i == WHO_NONE) return;
    runlink(pm, i);
    pn(pm, i)->parent = WHO_NONE; /* its handle may live on (open, other links): unnamed now */
    pn(pm, i)->name_len = 0;
}

void path_map_rename(struct path_map *pm, uint32_t dir, const uint8_t *name, uint32_t nlen, uint32_t new_dir,
                     const uint8_t *new_name, uint32_t new_len)
{
    uint32_t i = child(pm, dir, name, nlen);
    if (new_dir != WHO_NONE) path_map_unlink(pm, new_dir, new_name, new_len); /* the target it replaced */
    if (i == WHO_NONE) return;
    const struct who_head *h = who_rec(&pm->t, i);
    uint8_t fh[WHO_KEY_MAX];
    uint32_t len = h->key_len;
    memcpy(fh, h->key, len);
    runlink(pm, i);
    pn(pm, i)->parent = WHO_NONE;
    pn(pm, i)->name_len = 0;
    path_map_bind(pm, fh, len, new_dir, new_name, new_len, false);
}

static size_t put(char *buf, size_t at, size_t n, const char *s, size_t len)
{
    if (at + len >= n) len = at < n - 1 ? n - 1 - at : 0;
    memcpy(buf + at, s, len);
    return at + len;
}

static size_t put_hash(char *buf, size_t at, size_t n, uint32_t h)
{
    static const char hex[] = "0123456789abcdef";
    char s[16] = "<fh ";
    for (int k = 0; k < 8; k++) s[4 + k] = hex[(h >> (28 - 4 * k)) & 15];
    s[12] = '>';
    return put(buf, at, n, s, 13);
}

bool path_map_path(const struct path_map *pm, const uint8_t *fh, uint32_t len, char *buf, size_t n)
{
    if (n) buf[0] = 0;
    if (n < 32) return false;
    uint32_t i = path_map_find(pm, fh, len);
    if (i == WHO_NONE) return false;
    uint32_t chain[PATH_DEPTH_MAX];
    int depth = 0;
    bool deeper = false;   /* stopped at PATH_DEPTH_MAX (or a loop) */
    uint32_t top = i;      /* the deepest known ancestor */
    for (;;) {
        const struct path_node *p = pn(pm, top);
        if ((p->flags & PN_ROOT) || !(p->flags & PN_NAMED)) break;
        if (depth == PATH_DEPTH_MAX) { deeper = true; break; }
        chain[depth++] = top;
        uint32_t up = path_map_parent(pm, top);
        if (up == WHO_NONE) { top = WHO_NONE; break; }
        top = up;
    }
    if (!depth && top != WHO_NONE && !(pn(pm, top)->flags & PN_ROOT)) return false; /* a handle, no name */
    size_t at = 0;
    if (deeper) {
        at = put(buf, at, n, "...", 3);
    } else if (top == WHO_NONE) {
        at = put_hash(buf, at, n, pn(pm, chain[depth - 1])->parent_hash); /* its parent is unknown or gone */
    } else if (pn(pm, top)->flags & PN_ROOT) {
        const struct path_node *r = pn(pm, top);
        at = put(buf, at, n, r->name, r->name_len);
        if (!depth && !r->name_len) at = put(buf, at, n, "/", 1);
    } else {
        const struct who_head *h = who_rec(&pm->t, top);
        at = put_hash(buf, at, n, path_fh_hash(h->key, h->key_len));
    }
    for (int d = depth - 1; d >= 0; d--) {
        const struct path_node *p = pn(pm, chain[d]);
        at = put(buf, at, n, "/", 1);
        at = put(buf, at, n, p->name, p->name_len);
        if (p->flags & PN_CUT) at = put(buf, at, n, "...", 3);
    }
    if (at == n - 1) memcpy(buf + n - 4, "...", 3);
    buf[at] = 0;
    return true;
}

uint32_t path_map_count(const struct path_map *pm) { return pm->t.n; }
uint64_t path_map_evicted(const struct path_map *pm) { return pm->t.evicted; }
