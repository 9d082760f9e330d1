/* The per-file, per-user and per-client tables: a row is found (or made)
 * when a call names its file, and counted when its transaction is handed
 * out. */
#include "who_int.h"

#include <stdlib.h>
#include <string.h>

#include "txn_internal.h"

struct file_rec {
    struct who_stats s;
    uint32_t client[WHO_FILE_CLIENTS]; /* hashes of the client addresses seen */
    uint8_t nclients;
    bool clients_more;
};

struct who *who_new(struct memcap *mc)
{
    struct who *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->mc = mc;
    w->pm = path_map_new(mc, 0);
    bool ok = w->pm && who_table_init(&w->files, mc, sizeof(struct file_rec), WHO_FILES_MAX, 8);
    ok = ok && who_table_init(&w->users, mc, sizeof(struct who_stats), WHO_USERS_MAX, 32);
    ok = ok && who_table_init(&w->clients, mc, sizeof(struct who_stats), WHO_CLIENTS_MAX, 32);
    if (!ok) {
        who_free(w);
        return NULL;
    }
    who_names_init(w);
    return w;
}

void who_free(struct who *w)
{
    if (!w) return;
    who_names_free(w);
    path_map_free(w->pm);
    if (w->files.bucket) who_table_free(&w->files);
    if (w->users.bucket) who_table_free(&w->users);
    if (w->clients.bucket) who_table_free(&w->clients);
    free(w);
}

const struct nfs_name_sink *who_names(struct who *w) { return &w->sink; }

void who_point_file(struct who *w, struct ns_txn *t, const uint8_t *fh, uint32_t len)
{
    struct txn_internal *in = txn_internal(t);
    bool fresh;
    uint32_t i = who_get(&w->files, fh, len, who_hash(fh, len), &fresh);
    if (i == WHO_NONE) return;
    in->who_file = i + 1;
    in->who_file_gen = who_rec(&w->files, i)->gen;
}

/* The handle a call is about, as far as the call tells. */
void who_on_call(struct who *w, struct ns_txn *t)
{
    uint32_t len = 0;
    const uint8_t *fh = who_names_call(w, t, &len);
    if (!fh && t->kind == NS_TXN_NFS3 && t->u.v3.call.fh_len) {
        fh = t->u.v3.call.fh;
        len = t->u.v3.call.fh_len;
    }
    if (fh && len) who_point_file(w, t, fh, len);
}

void who_on_reply(struct who *w, struct ns_txn *t, bool dup)
{
    if (dup) return;
    uint32_t len = 0;
    const uint8_t *fh = who_names_reply(w, t, &len);
    if (fh && len) who_point_file(w, t, fh, len);
}

/* The row of key: the one asked for last (most transactions come from
 * the same client and user as the one before) or looked up. */
static uint32_t who_get_cached(struct who_table *t, struct who_last *last, const uint8_t *key, uint32_t n)
{
    if (last->len == n && memcmp(last->key, key, n) == 0 && who_live(t, last->idx, last->gen)) return last->idx;
    bool fresh;
    uint32_t i = who_get(t, key, n, who_hash(key, n), &fresh);
    if (i == WHO_NONE) return i;
    last->len = (uint8_t)n;
    memcpy(last->key, key, n);
    last->idx = i;
    last->gen = who_rec(t, i)->gen;
    return i;
}

static uint32_t addr_key(const struct ns_addr *a, uint8_t *key)
{
    key[0] = a->family;
    uint32_t n = a->family == 6 ? 16 : 4;
    memcpy(key + 1, a->a, n);
    return n + 1;
}

static uint32_t count_client(struct who *w, const struct ns_conn *c, const struct who_sample *x);

static void count_file(struct who *w, const struct ns_txn *t, uint32_t client, const struct who_sample *x)
{
    const struct txn_internal *in = txn_internal_const(t);
    if (!in->who_file) return;
    uint32_t i = in->who_file - 1;
    if (!who_live(&w->files, i, in->who_file_gen)) {
        w->txns_unattributed++;
        return;
    }
    struct file_rec *f = who_payload(&w->files, i);
    who_stats_add(&f->s, x);
    if (client == WHO_NONE) return;
    uint32_t h = client ^ w->clients.evicted << 20; /* the client's row: a new id once rows were reused */
    for (unsigned k = 0; k < f->nclients; k++)
        if (f->client[k] == h) return;
    if (f->nclients < WHO_FILE_CLIENTS) f->client[f->nclients++] = h;
    else f->clients_more = true;
}

static void count_user(struct who *w, const struct ns_txn *t, const struct who_sample *x)
{
    const struct txn_internal *in = txn_internal_const(t);
    uint8_t key[1 + 16];
    uint32_t n;
    switch (in->cred) {
    case TXN_CRED_SYS:
        key[0] = WHO_USER_SYS;
        memcpy(key + 1, &in->uid, 4);
        memcpy(key + 5, &in->gid, 4);
        n = 9;
        break;
    case TXN_CRED_GSS:
        key[0] = WHO_USER_GSS;
        memcpy(key + 1, in->gss_handle, in->gss_handle_len);
        n = 1u + in->gss_handle_len;
        break;
    case TXN_CRED_OTHER:
        key[0] = WHO_USER_OTHER;
        n = 1;
        break;
    default:
        return; /* no call seen: whose it was is unknown */
    }
    uint32_t i = who_get_cached(&w->users, &w->last_user, key, n);
    if (i != WHO_NONE) who_stats_add(who_payload(&w->users, i), x);
}

static uint32_t count_client(struct who *w, const struct ns_conn *c, const struct who_sample *x)
{
    if (!c) return WHO_NONE;
    uint8_t key[17];
    uint32_t n = addr_key(&c->client.addr, key);
    uint32_t i = who_get_cached(&w->clients, &w->last_client, key, n);
    if (i != WHO_NONE) who_stats_add(who_payload(&w->clients, i), x);
    return i;
}

void who_on_done(struct who *w, const struct ns_txn *t, const struct ns_conn *c)
{
    struct who_sample x;
    who_sample_of(&x, t);
    uint32_t client = count_client(w, c, &x);
    count_file(w, t, client, &x);
    count_user(w, t, &x);
}

uint32_t who_file_slots(const struct who *w) { return w->files.n; }
uint32_t who_user_slots(const struct who *w) { return w->users.n; }
uint32_t who_client_slots(const struct who *w) { return w->clients.n; }

bool who_file_row(const struct who *w, uint32_t i, struct who_file_row *out)
{
    if (i >= w->files.n || !who_rec(&w->files, i)->key_len) return false;
    const struct who_head *h = who_rec(&w->files, i);
    const struct file_rec *f = who_payload(&w->files, i);
    if (!f->s.calls) return false; /* named by a call still outstanding */
    *out = (struct who_file_row){h->key, h->key_len, &f->s, f->nclients, f->clients_more};
    return true;
}

bool who_user_row(const struct who *w, uint32_t i, struct who_user_row *out)
{
    if (i >= w->users.n || !who_rec(&w->users, i)->key_len) return false;
    const struct who_head *h = who_rec(&w->users, i);
    memset(out, 0, sizeof *out);
    out->kind = h->key[0];
    if (out->kind == WHO_USER_SYS) {
        memcpy(&out->uid, h->key + 1, 4);
        memcpy(&out->gid, h->key + 5, 4);
    } else if (out->kind == WHO_USER_GSS) {
        out->gss_handle = h->key + 1;
        out->gss_handle_len = h->key_len - 1u;
    }
    out->s = who_payload(&w->users, i);
    return true;
}

bool who_client_row(const struct who *w, uint32_t i, struct who_client_row *out)
{
    if (i >= w->clients.n || !who_rec(&w->clients, i)->key_len) return false;
    const struct who_head *h = who_rec(&w->clients, i);
    memset(out, 0, sizeof *out);
    out->addr.family = h->key[0];
    memcpy(out->addr.a, h->key + 1, h->key_len - 1u);
    out->s = who_payload(&w->clients, i);
    return true;
}

bool who_txn_file(const struct who *w, const struct ns_txn *t, const uint8_t **fh, uint32_t *len)
{
    const struct txn_internal *in = txn_internal_const(t);
    if (!in->who_file || !who_live(&w->files, in->who_file - 1, in->who_file_gen)) return false;
    const struct who_head *h = who_rec(&w->files, in->who_file - 1);
    *fh = h->key;
    *len = h->key_len;
    return true;
}

bool who_path(const struct who *w, const uint8_t *fh, uint32_t len, char *buf, size_t n)
{
    return path_map_path(w->pm, fh, len, buf, n);
}

void who_counts(const struct who *w, struct who_counts *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < w->files.n; i++) {
        struct who_file_row r;
        if (who_file_row(w, i, &r)) out->files++;
    }
    for (uint32_t i = 0; i < w->users.n; i++) out->users += who_rec(&w->users, i)->key_len ? 1 : 0;
    for (uint32_t i = 0; i < w->clients.n; i++) out->clients += who_rec(&w->clients, i)->key_len ? 1 : 0;
    out->paths = path_map_count(w->pm);
    out->files_evicted = w->files.evicted;
    out->users_evicted = w->users.evicted;
    out->clients_evicted = w->clients.evicted;
    out->paths_evicted = path_map_evicted(w->pm);
    out->pending_evicted = w->pending_evicted;
    out->txns_unattributed = w->txns_unattributed;
}
