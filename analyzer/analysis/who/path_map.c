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
    uint32_t *rbucket;           /* the (parent, name) index, rmask + 1 buckets */
    uint32_t root;               /* the pseudo root's node (WHO_NONE: not made yet) */
    uint32_t rmask;              /* rbucket's size - 1 */
};

static const uint8_t ROOT_KEY[1] = {0}; /* no NFS handle is one zero byte */

static struct path_node *pn(const struct path_map *pm, uint32_t i) { return who_payload(&pm->t, i); }

/* CRC-32 (IEEE, reflected: zlib's, tshark's nfs.fh.hash). */
static const uint32_t crc_table[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu,
    0xe963a535u, 0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u,
    0x09b64c2bu, 0x7eb17cbdu, 0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u,
    0xf3b97148u, 0x84be41deu, 0x1adad47du, 0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u,
    0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu, 0x14015c4fu, 0x63066cd9u,
    0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u, 0xa2677172u,
    0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
    0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u,
    0x26d930acu, 0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u,
    0xcfba9599u, 0xb8bda50fu, 0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u,
    0x2f6f7c87u, 0x58684c11u, 0xc1611dabu, 0xb6662d3du, 0x76dc4190u, 0x01db7106u,
    0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu, 0x9fbfe4a5u, 0xe8b8d433u,
    0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu, 0x086d3d2du,
    0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
    0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u,
    0x8bbeb8eau, 0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u,
    0x4db26158u, 0x3ab551ceu, 0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u,
    0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au, 0x346ed9fcu, 0xad678846u, 0xda60b8d0u,
    0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u, 0x5005713cu, 0x270241aau,
    0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u, 0xce61e49fu,
    0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
    0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au,
    0xead54739u, 0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u,
    0x0d6d6a3eu, 0x7a6a5aa8u, 0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u,
    0xf00f9344u, 0x8708a3d2u, 0x1e01f268u, 0x6906c2feu, 0xf762575du, 0x806567cbu,
    0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u, 0x10da7a5au, 0x67dd4accu,
    0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u, 0xa1d1937eu,
    0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u,
    0x316e8eefu, 0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u,
    0xcc0c7795u, 0xbb0b4703u, 0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u,
    0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u, 0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du,
    0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au, 0x9c0906a9u, 0xeb0e363fu,
    0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu, 0x0cb61b38u,
    0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
    0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u,
    0x88085ae6u, 0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u,
    0x616bffd3u, 0x166ccf45u, 0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u,
    0xa7672661u, 0xd06016f7u, 0x4969474du, 0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu,
    0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u, 0x47b2cf7fu, 0x30b5ffe9u,
    0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u, 0xcdd70693u,
    0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
    0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du,
};

uint32_t path_fh_hash(const uint8_t *fh, uint32_t len)
{
    uint32_t c = 0xffffffffu;
    for (uint32_t i = 0; i < len; i++) c = crc_table[(c ^ fh[i]) & 0xff] ^ (c >> 8);
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
    uint32_t *at = &pm->rbucket[p->rhash & pm->rmask];
    while (*at != WHO_NONE && *at != i) at = &pn(pm, *at)->rnext;
    if (*at == i) *at = p->rnext;
    p->flags &= (uint8_t)~PN_NAMED;
}

static void on_evict(void *ctx, uint32_t i) { runlink(ctx, i); }

/* The (parent, name) index follows the table's buckets. */
static bool on_rehash(void *ctx, uint32_t old_mask)
{
    struct path_map *pm = ctx;
    size_t nb = (size_t)pm->t.mask + 1, add = (nb - old_mask - 1) * sizeof *pm->rbucket;
    uint32_t *b = NULL;
    if (!pm->t.mc || memcap_take(pm->t.mc, MEM_SESSIONS, add)) {
        b = malloc(nb * sizeof *b);
        if (!b && pm->t.mc) memcap_give(pm->t.mc, MEM_SESSIONS, add);
    }
    if (!b) return false; /* no room: the index keeps its size (longer chains) */
    memset(b, 0xff, nb * sizeof *b);
    for (uint32_t i = 0; i < pm->t.n; i++) {
        struct path_node *p = pn(pm, i);
        if (!who_rec(&pm->t, i)->key_len || !(p->flags & PN_NAMED) || (p->flags & PN_ROOT)) continue;
        p->rnext = b[p->rhash & (nb - 1)];
        b[p->rhash & (nb - 1)] = i;
    }
    if (pm->t.mc) memcap_give(pm->t.mc, MEM_SESSIONS, ((size_t)old_mask + 1) * sizeof *pm->rbucket);
    free(pm->rbucket);
    pm->rbucket = b;
    pm->rmask = (uint32_t)nb - 1;
    return true;
}

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
    pm->t.on_rehash = on_rehash;
    pm->t.evict_ctx = pm;
    pm->rmask = pm->t.mask;
    pm->root = WHO_NONE;
    return pm;
}

void path_map_free(struct path_map *pm)
{
    if (!pm) return;
    if (pm->t.mc) memcap_give(pm->t.mc, MEM_SESSIONS, ((size_t)pm->rmask + 1) * sizeof *pm->rbucket);
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
    if ((p->flags & PN_NAMED) && p->parent == dir && p->parent_gen == dir_gen && p->name_len == nlen &&
        memcmp(p->name, name, nlen) == 0)
        return; /* looked up again: nothing new */
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
    p->rnext = pm->rbucket[p->rhash & pm->rmask];
    pm->rbucket[p->rhash & pm->rmask] = i;
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
    if (plen) memcpy(p->name, path, plen); /* NULL path: the namespace's root */
    p->name_len = (uint8_t)plen;
    p->parent = WHO_NONE;
    p->flags = PN_ROOT;
}

static uint32_t child(const struct path_map *pm, uint32_t dir, const uint8_t *name, uint32_t nlen)
{
    if (dir == WHO_NONE || !nlen || nlen > PATH_NAME_KEEP) return WHO_NONE;
    uint32_t gen = who_rec(&pm->t, dir)->gen;
    uint32_t h = child_hash(dir, gen, name, nlen);
    for (uint32_t i = pm->rbucket[h & pm->rmask]; i != WHO_NONE; i = pn(pm, i)->rnext) {
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
