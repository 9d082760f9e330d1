/* READ_PLUS (RFC 7862 s.15.10) beside plain READ: per file handle and
 * overall, data and hole bytes and segments of READ_PLUS replies, bytes of
 * READ replies. Capped; the least recently read file is evicted (counted). */
#include <stdlib.h>

#include "nfs4_xdr_common.h"
#include "session_int.h"

#define NFS3_PROC_READ 6

static uint32_t fh_hash(const struct nfs4_fh *fh)
{
    uint32_t h = 2166136261u ^ fh->len;
    for (uint8_t i = 0; i < fh->len; i++) h = (h ^ fh->data[i]) * 16777619u;
    return h;
}

static uint32_t *hash_slot(struct sess_model *m, const struct nfs4_fh *fh)
{
    uint32_t i = fh_hash(fh) & (SESS_FILES_HASH - 1);
    for (;; i = (i + 1) & (SESS_FILES_HASH - 1)) {
        uint32_t k = m->files_hash[i];
        if (!k) return &m->files_hash[i];
        const struct nfs4_fh *o = &m->files[k - 1].fh;
        if (o->len == fh->len && memcmp(o->data, fh->data, fh->len) == 0) return &m->files_hash[i];
    }
}

static int cmp_age(const void *pa, const void *pb)
{
    const struct ns_read_file *a = pa, *b = pb;
    return a->last_ts_ns < b->last_ts_ns ? 1 : a->last_ts_ns > b->last_ts_ns ? -1 : 0; /* newest first */
}

/* Full: drop the least recently read sixteenth (counted), rebuild the index. */
static void evict_files(struct sess_model *m)
{
    qsort(m->files, m->nfiles, sizeof *m->files, cmp_age);
    size_t drop = m->nfiles / 16 ? m->nfiles / 16 : 1;
    m->nfiles -= drop;
    m->st.files_evicted += drop;
    memset(m->files_hash, 0, SESS_FILES_HASH * sizeof *m->files_hash);
    for (size_t i = 0; i < m->nfiles; i++) *hash_slot(m, &m->files[i].fh) = (uint32_t)i + 1;
}

static struct ns_read_file *file_get(struct sess_model *m, const struct nfs4_fh *fh, int64_t ts)
{
    if (!m->files_hash) {
        if (!memcap_take(m->mc, MEM_SESSIONS, SESS_FILES_HASH * sizeof *m->files_hash)) return NULL;
        m->files_hash = calloc(SESS_FILES_HASH, sizeof *m->files_hash);
        if (!m->files_hash) {
            memcap_give(m->mc, MEM_SESSIONS, SESS_FILES_HASH * sizeof *m->files_hash);
            return NULL;
        }
    }
    uint32_t *h = hash_slot(m, fh);
    if (*h) return &m->files[*h - 1];
    if (m->nfiles == m->files_cap) {
        size_t nc = m->files_cap ? m->files_cap * 2 : 16;
        if (nc > SESS_FILES_MAX) nc = SESS_FILES_MAX;
        /* the files and the sorted view front ends read, grown together:
         * reading (rp_files) never allocates, so what one read returned
         * stays valid across the next (nfsscope.h, "Lifetimes") */
        size_t per = sizeof *m->files + sizeof *m->files_view;
        struct ns_read_file *nv = NULL;
        const struct ns_read_file **nw = NULL;
        if (nc > m->files_cap && memcap_take(m->mc, MEM_SESSIONS, (nc - m->files_cap) * per)) {
            nv = realloc(m->files, nc * sizeof *nv);
            if (nv) m->files = nv;
            nw = nv ? realloc(m->files_view, nc * sizeof *nw) : NULL;
            if (nw) m->files_view = nw;
            if (!nw) memcap_give(m->mc, MEM_SESSIONS, (nc - m->files_cap) * per);
        }
        if (nw) {
            m->files_cap = nc;
        } else {
            if (!m->nfiles) return NULL;
            evict_files(m);
            h = hash_slot(m, fh);
        }
    }
    struct ns_read_file *f = &m->files[m->nfiles++];
    memset(f, 0, sizeof *f);
    f->fh = *fh;
    f->first_ts_ns = ts;
    *h = (uint32_t)m->nfiles;
    return f;
}

static void add_read(struct ns_read_bytes *r, bool plus, const struct nfs_io_res *io)
{
    if (plus) {
        r->read_plus_replies++;
        r->data_segments += io->data_segments;
        r->data_bytes += io->data_bytes;
        r->hole_segments += io->hole_segments;
        r->hole_bytes += io->hole_bytes;
    } else {
        r->read_replies++;
        r->read_bytes += io->count;
    }
}

void rp_on_reply(struct sess_model *m, const struct ns_txn *t)
{
    const struct nfs_io_args *ca;
    const struct nfs_io_res *ra;
    bool plus;
    if (t->kind == NS_TXN_NFS4 && t->proc == 1) {
        ca = &t->u.v4.call.io;
        ra = &t->u.v4.reply.io;
        if (!ca->has_io || !ra->has_io || (ca->op != NFS4_OP_READ && ca->op != NFS4_OP_READ_PLUS)) return;
        plus = ca->op == NFS4_OP_READ_PLUS;
    } else if (t->kind == NS_TXN_NFS3 && t->proc == NFS3_PROC_READ) {
        ca = &t->u.v3.call.io;
        ra = &t->u.v3.reply.io;
        if (!ca->has_io || !ra->has_io || t->u.v3.reply.status != 0) return;
        plus = false;
    } else {
        return;
    }
    add_read(&m->read_total, plus, ra);
    if (!ca->fh.len) return;
    struct ns_read_file *f = file_get(m, &ca->fh, t->reply_ts_ns);
    if (!f) return;
    add_read(&f->r, plus, ra);
    f->last_ts_ns = t->reply_ts_ns;
}

static int cmp_file(const void *pa, const void *pb)
{
    const struct ns_read_file *a = *(const struct ns_read_file *const *)pa, *b = *(const struct ns_read_file *const *)pb;
    size_t n = a->fh.len < b->fh.len ? a->fh.len : b->fh.len;
    int c = memcmp(a->fh.data, b->fh.data, n);
    if (c) return c;
    return (int)a->fh.len - (int)b->fh.len;
}

size_t rp_files(struct sess_model *m, const struct ns_read_file *const **out)
{
    if (!m->nfiles) { *out = NULL; return 0; }
    for (size_t i = 0; i < m->nfiles; i++) m->files_view[i] = &m->files[i];
    qsort(m->files_view, m->nfiles, sizeof *m->files_view, cmp_file);
    *out = m->files_view;
    return m->nfiles;
}

void rp_free(struct sess_model *m)
{
    memcap_give(m->mc, MEM_SESSIONS, m->files_cap * (sizeof *m->files + sizeof *m->files_view));
    if (m->files_hash) memcap_give(m->mc, MEM_SESSIONS, SESS_FILES_HASH * sizeof *m->files_hash);
    free(m->files_hash);
    free(m->files);
    free(m->files_view);
}
