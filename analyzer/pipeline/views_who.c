/* Public who-and-what view (nfsscope/who.h): the who module's rows copied
 * out and sorted. Read time only: nothing here runs per frame. */
#include <stdlib.h>
#include <string.h>

#include "analyzer_int.h"
#include "nfsscope/who.h"
#include "path_map.h"
#include "txn_internal.h"
#include "who_int.h"

static void figures(const struct who_stats *s, struct ns_who_figures *f)
{
    *f = (struct ns_who_figures){s->calls, s->bytes, s->errors, s->read_bytes, s->write_bytes, s->time_ns,
                                 s->answered, who_stats_pct_us(s, 0.50), who_stats_pct_us(s, 0.99),
                                 s->max_ns / 1000};
}

static uint64_t sort_key(const struct ns_who_figures *f, enum ns_who_sort by, bool file)
{
    switch (by) {
    case NS_WHO_BY_BYTES: return file ? f->read_bytes + f->write_bytes : f->bytes;
    case NS_WHO_BY_ERRORS: return f->errors;
    case NS_WHO_BY_CALLS: return f->calls;
    default: return f->time_ns;
    }
}

/* Rows are sorted through an array of (key, row) pairs; ties by the row's
 * own key bytes so the order is the same on every run. */
struct order {
    uint64_t k1, k2;
    const uint8_t *key;
    size_t key_len;
    size_t row;
};

static int cmp_order(const void *pa, const void *pb)
{
    const struct order *a = pa, *b = pb;
    if (a->k1 != b->k1) return a->k1 > b->k1 ? -1 : 1;
    if (a->k2 != b->k2) return a->k2 > b->k2 ? -1 : 1;
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, n);
    if (c) return c;
    return a->key_len < b->key_len ? -1 : a->key_len > b->key_len;
}

size_t ns_analyzer_who_files(const ns_analyzer *a, enum ns_who_sort by, struct ns_who_file *out, size_t n)
{
    const struct who *w = a->an.who;
    uint32_t slots = who_file_slots(w);
    struct order *o = slots ? malloc(slots * sizeof *o) : NULL;
    size_t rows = 0;
    for (uint32_t i = 0; o && i < slots; i++) {
        struct who_file_row r;
        if (!who_file_row(w, i, &r)) continue;
        struct ns_who_figures f;
        figures(r.s, &f);
        o[rows++] = (struct order){sort_key(&f, by, true), f.calls, r.fh, r.fh_len, i};
    }
    if (!o) return 0;
    qsort(o, rows, sizeof *o, cmp_order);
    for (size_t k = 0; k < rows && k < n; k++) {
        struct who_file_row r;
        who_file_row(w, (uint32_t)o[k].row, &r);
        struct ns_who_file *x = &out[k];
        memset(x, 0, sizeof *x);
        figures(r.s, &x->f);
        x->clients = r.clients;
        x->clients_more = r.clients_more;
        x->fh_len = (uint8_t)(r.fh_len < NS_FH_MAX ? r.fh_len : NS_FH_MAX);
        memcpy(x->fh, r.fh, x->fh_len);
    }
    free(o);
    return rows;
}

size_t ns_analyzer_who_users(const ns_analyzer *a, enum ns_who_sort by, struct ns_who_user *out, size_t n)
{
    const struct who *w = a->an.who;
    uint32_t slots = who_user_slots(w);
    struct order *o = slots ? malloc(slots * sizeof *o) : NULL;
    size_t rows = 0;
    for (uint32_t i = 0; o && i < slots; i++) {
        struct who_user_row r;
        if (!who_user_row(w, i, &r)) continue;
        struct ns_who_figures f;
        figures(r.s, &f);
        const struct who_head *h = who_rec(&w->users, i);
        o[rows++] = (struct order){sort_key(&f, by, false), f.calls, h->key, h->key_len, i};
    }
    if (!o) return 0;
    qsort(o, rows, sizeof *o, cmp_order);
    for (size_t k = 0; k < rows && k < n; k++) {
        struct who_user_row r;
        who_user_row(w, (uint32_t)o[k].row, &r);
        struct ns_who_user *x = &out[k];
        memset(x, 0, sizeof *x);
        figures(r.s, &x->f);
        x->auth = r.kind;
        x->uid = r.uid;
        x->gid = r.gid;
        x->gss_handle_len = (uint8_t)(r.gss_handle_len < 16 ? r.gss_handle_len : 16);
        if (x->gss_handle_len) memcpy(x->gss_handle, r.gss_handle, x->gss_handle_len);
    }
    free(o);
    return rows;
}

size_t ns_analyzer_who_clients(const ns_analyzer *a, enum ns_who_sort by, struct ns_who_client *out, size_t n)
{
    const struct who *w = a->an.who;
    uint32_t slots = who_client_slots(w);
    struct order *o = slots ? malloc(slots * sizeof *o) : NULL;
    struct who_client_row *rows_v = slots ? malloc(slots * sizeof *rows_v) : NULL;
    size_t rows = 0;
    for (uint32_t i = 0; o && rows_v && i < slots; i++) {
        if (!who_client_row(w, i, &rows_v[rows])) continue;
        struct ns_who_figures f;
        figures(rows_v[rows].s, &f);
        o[rows] = (struct order){sort_key(&f, by, false), f.calls, (const uint8_t *)&rows_v[rows].addr,
                                 sizeof rows_v[rows].addr, rows};
        rows++;
    }
    if (!o || !rows_v) {
        free(o);
        free(rows_v);
        return 0;
    }
    qsort(o, rows, sizeof *o, cmp_order);
    for (size_t k = 0; k < rows && k < n; k++) {
        const struct who_client_row *r = &rows_v[o[k].row];
        memset(&out[k], 0, sizeof out[k]);
        figures(r->s, &out[k].f);
        out[k].addr = r->addr;
    }
    free(o);
    free(rows_v);
    return rows;
}

bool ns_analyzer_fh_path(const ns_analyzer *a, const uint8_t *fh, size_t len, char *buf, size_t n)
{
    if (len > NS_FH_MAX) {
        if (n) buf[0] = 0;
        return false;
    }
    return who_path(a->an.who, fh, (uint32_t)len, buf, n);
}

uint32_t ns_fh_hash(const uint8_t *fh, size_t len) { return path_fh_hash(fh, (uint32_t)len); }

bool ns_analyzer_txn_fh(const ns_analyzer *a, const struct ns_txn *t, const uint8_t **fh, size_t *len)
{
    uint32_t l = 0;
    if (!who_txn_file(a->an.who, t, fh, &l)) return false;
    *len = l;
    return true;
}

bool ns_analyzer_txn_user(const ns_analyzer *a, const struct ns_txn *t, struct ns_who_user *out)
{
    (void)a;
    const struct txn_internal *in = txn_internal_const(t);
    memset(out, 0, sizeof *out);
    switch (in->cred) {
    case TXN_CRED_SYS: out->auth = NS_WHO_AUTH_SYS; out->uid = in->uid; out->gid = in->gid; return true;
    case TXN_CRED_GSS:
        out->auth = NS_WHO_AUTH_GSS;
        out->gss_handle_len = in->gss_handle_len;
        memcpy(out->gss_handle, in->gss_handle, in->gss_handle_len);
        return true;
    case TXN_CRED_OTHER: out->auth = NS_WHO_AUTH_OTHER; return true;
    default: return false;
    }
}

void ns_analyzer_who_counts(const ns_analyzer *a, struct ns_who_counts *out)
{
    struct who_counts c;
    who_counts(a->an.who, &c);
    *out = (struct ns_who_counts){c.files, c.users, c.clients, c.paths, c.files_evicted, c.users_evicted,
                                  c.clients_evicted, c.paths_evicted, c.pending_evicted, c.txns_unattributed};
}
