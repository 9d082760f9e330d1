/* Names from the wire: the decoders tell each step that moves a COMPOUND's
 * current handle or ties a name to one (nfs_names.h); a call's steps are
 * kept until its reply, whose results say which of them succeeded and which
 * handles they reached. What is learnt goes to the path map:
 *  - NFSv3: LOOKUP, CREATE, MKDIR, SYMLINK, MKNOD (the call's directory and
 *    name, the reply's handle), READDIRPLUS entries, REMOVE, RMDIR, RENAME;
 *  - MOUNT: MNT's path and root handle;
 *  - NFSv4: PUTFH / PUTROOTFH / PUTPUBFH, then LOOKUP, LOOKUPP, OPEN by name
 *    or CREATE, up to a GETFH; READDIR entries with FATTR4_FILEHANDLE;
 *    REMOVE, RENAME (SAVEFH/RESTOREFH followed).
 * Only compounds with such steps are kept (a READ's or a GETATTR's are not). */
#include <stdlib.h>
#include <string.h>

#include "txn_internal.h"
#include "who_int.h"

enum { NFS3_LOOKUP = 3, NFS3_CREATE = 8, NFS3_MKDIR = 9, NFS3_SYMLINK = 10, NFS3_MKNOD = 11,
       NFS3_REMOVE = 12, NFS3_RMDIR = 13, NFS3_RENAME = 14 };
enum { OP4_GETATTR = 9, OP4_GETFH = 10, OP4_PUTFH = 22, OP4_PUTPUBFH = 23, OP4_PUTROOTFH = 24,
       OP4_READDIR = 26, OP4_RESTOREFH = 31, OP4_SAVEFH = 32, OP4_SEQUENCE = 53 };

static void on_begin(void *ctx, const struct ns_txn *t, bool reply);
static void on_fact(void *ctx, const struct nfs_name_fact *f);

void who_names_init(struct who *w)
{
    w->sink = (struct nfs_name_sink){on_begin, on_fact, w};
}

void who_names_free(struct who *w)
{
    if (w->pending) {
        free(w->pending);
        memcap_give(w->mc, MEM_SESSIONS, PENDING_SLOTS * sizeof *w->pending);
    }
}

/* ---- the call: steps into the scratch program ---- */

static void prog_add(struct prog *p, const struct nfs_name_fact *f)
{
    if (p->n == PROG_STEPS || (uint32_t)p->used + f->alen + f->blen > PROG_ARENA) {
        p->cut = true;
        return;
    }
    struct prog_step *s = &p->s[p->n++];
    s->step = f->step;
    s->index = (uint16_t)(f->index < UINT16_MAX ? f->index : UINT16_MAX);
    s->a_off = p->used;
    s->a_len = (uint16_t)f->alen;
    if (f->alen) memcpy(p->arena + p->used, f->a, f->alen);
    p->used = (uint16_t)(p->used + f->alen);
    s->b_off = p->used;
    s->b_len = (uint16_t)f->blen;
    if (f->blen) memcpy(p->arena + p->used, f->b, f->blen);
    p->used = (uint16_t)(p->used + f->blen);
    switch (f->step) {
    case NN_PUTFH: case NN_SAVEFH: case NN_RESTOREFH: case NN_OTHER_FH: case NN_OPEN_FH:
        break;
    default:
        p->naming = true;
    }
}

static void on_begin(void *ctx, const struct ns_txn *t, bool reply)
{
    struct who *w = ctx;
    w->scratch_reply = reply;
    if (!reply) {
        w->scratch.txn_id = t->id;
        w->scratch.n = w->scratch.used = 0;
        w->scratch.cut = w->scratch.naming = false;
        return;
    }
    /* a reply: its call's steps, if kept */
    struct run *r = &w->run;
    memset(r, 0, offsetof(struct run, cur));
    r->cur.known = r->saved.known = false;
    r->cur.rel_len = r->saved.rel_len = 0;
    r->active = true;
    r->txn_id = t->id;
    r->t = t;
    struct prog *p = w->pending ? &w->pending[t->id % PENDING_SLOTS] : NULL;
    r->p = p && p->txn_id == t->id ? p : NULL;
}

/* The main operation's position: the first that is not bookkeeping, else
 * the first GETATTR (as nfs_dispatch.c's main_op). */
static uint32_t main_index(const struct ns_txn *t)
{
    uint32_t n = ns_txn_nops(t), getattr = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t op = ns_txn_op(t, i);
        if (op == OP4_SEQUENCE || op == OP4_PUTFH || op == OP4_PUTPUBFH || op == OP4_PUTROOTFH ||
            op == OP4_GETFH || op == OP4_SAVEFH || op == OP4_RESTOREFH)
            continue;
        if (op == OP4_GETATTR) {
            if (getattr == UINT32_MAX) getattr = i;
            continue;
        }
        return i;
    }
    return getattr != UINT32_MAX ? getattr : 0;
}

static bool has_op(const struct ns_txn *t, uint32_t want)
{
    for (uint32_t i = 0, n = ns_txn_nops(t); i < n; i++)
        if (ns_txn_op(t, i) == want) return true;
    return false;
}

static void keep_pending(struct who *w, const struct prog *p)
{
    if (!w->pending) {
        if (w->pending_refused) return;
        if (!memcap_take(w->mc, MEM_SESSIONS, PENDING_SLOTS * sizeof *w->pending)) {
            w->pending_refused = true;
            w->pending_evicted++;
            return;
        }
        w->pending = malloc(PENDING_SLOTS * sizeof *w->pending);
        if (!w->pending) {
            memcap_give(w->mc, MEM_SESSIONS, PENDING_SLOTS * sizeof *w->pending);
            w->pending_refused = true;
            return;
        }
        for (unsigned i = 0; i < PENDING_SLOTS; i++) w->pending[i].txn_id = 0; /* free: the rest is written when taken */
    }
    struct prog *slot = &w->pending[p->txn_id % PENDING_SLOTS];
    if (slot->txn_id) w->pending_evicted++; /* its reply never came, or comes too late */
    memcpy(slot, p, offsetof(struct prog, arena) + p->used);
}

const uint8_t *who_names_call(struct who *w, const struct ns_txn *t, uint32_t *len)
{
    struct prog *p = &w->scratch;
    if (p->txn_id != t->id || w->scratch_reply) return NULL;
    const uint8_t *cur = NULL;
    if (t->kind == NS_TXN_NFS4 && t->proc == 1) {
        p->main_index = main_index(t);
        /* the handle current at the main operation, as far as the call tells */
        const uint8_t *saved = NULL;
        uint32_t clen = 0, slen = 0;
        for (uint16_t i = 0; i < p->n && p->s[i].index < p->main_index; i++) {
            const struct prog_step *s = &p->s[i];
            switch (s->step) {
            case NN_PUTFH: cur = p->arena + s->a_off; clen = s->a_len; break;
            case NN_SAVEFH: saved = cur; slen = clen; break;
            case NN_RESTOREFH: cur = saved; clen = slen; break;
            default: cur = NULL; clen = 0; break;
            }
        }
        *len = clen;
        if (p->naming || has_op(t, OP4_READDIR)) keep_pending(w, p);
    } else if (p->n && (t->kind == NS_TXN_NFS3 || t->kind == NS_TXN_MOUNT)) {
        keep_pending(w, p); /* RENAME's target, MNT's path */
    }
    p->txn_id = 0;
    return cur;
}

/* ---- the reply: following the steps that succeeded ---- */

static void pos_node(struct who *w, struct fh_pos *c, uint32_t node)
{
    c->known = node != WHO_NONE;
    c->node = node;
    c->gen = c->known ? path_map_gen(w->pm, node) : 0;
    c->rel_len = 0;
    c->rel_cut = false;
}

static bool pos_live(const struct who *w, const struct fh_pos *c)
{
    return c->known && path_map_live(w->pm, c->node, c->gen);
}

/* A name looked up below the current position. */
static void pos_down(struct fh_pos *c, const uint8_t *name, uint32_t n)
{
    if (!c->known) return;
    uint32_t need = (c->rel_len ? 1u : 0u) + n;
    if (c->rel_len + need > PATH_NAME_KEEP) {
        c->rel_cut = true;
        return;
    }
    if (c->rel_len) c->rel[c->rel_len++] = '/';
    memcpy(c->rel + c->rel_len, name, n);
    c->rel_len = (uint16_t)(c->rel_len + n);
}

static void pos_up(struct who *w, struct fh_pos *c)
{
    if (!c->known) return;
    if (c->rel_len) {
        while (c->rel_len && c->rel[c->rel_len - 1] != '/') c->rel_len--;
        if (c->rel_len) c->rel_len--;
        return;
    }
    pos_node(w, c, pos_live(w, c) ? path_map_parent(w->pm, c->node) : WHO_NONE);
}

/* A directory the position names: its node only (no pending names). */
static uint32_t pos_dir(const struct who *w, const struct fh_pos *c)
{
    return pos_live(w, c) && !c->rel_len ? c->node : WHO_NONE;
}

static void follow(struct who *w, struct run *r, const struct prog_step *s)
{
    const uint8_t *a = r->p->arena + s->a_off, *b = r->p->arena + s->b_off;
    switch (s->step) {
    case NN_PUTFH: pos_node(w, &r->cur, path_map_node(w->pm, a, s->a_len)); break;
    case NN_PUTROOTFH:
    case NN_PUTPUBFH: pos_node(w, &r->cur, path_map_root(w->pm)); break;
    case NN_LOOKUP:
    case NN_OPEN_NAME:
    case NN_CREATE: pos_down(&r->cur, a, s->a_len); break;
    case NN_LOOKUPP: pos_up(w, &r->cur); break;
    case NN_SAVEFH: r->saved = r->cur; break;
    case NN_RESTOREFH: r->cur = r->saved; break;
    case NN_REMOVE: path_map_unlink(w->pm, pos_dir(w, &r->cur), a, s->a_len); break;
    case NN_RENAME:
        path_map_rename(w->pm, pos_dir(w, &r->saved), a, s->a_len, pos_dir(w, &r->cur), b, s->b_len);
        break;
    case NN_OTHER_FH: pos_node(w, &r->cur, WHO_NONE); break;
    default: break; /* GETFH: its handle comes as a fact */
    }
}

/* Follow the steps of operations before position index (they succeeded). */
static void advance(struct who *w, struct run *r, uint32_t index)
{
    if (!r->p) return;
    while (r->next < r->p->n && r->p->s[r->next].index < index) follow(w, r, &r->p->s[r->next++]);
}

/* GETFH returned fh: name it from where the steps were, then stand on it. */
static void got_fh(struct who *w, struct run *r, uint32_t index, const uint8_t *fh, uint32_t len)
{
    struct fh_pos *c = &r->cur;
    if (pos_live(w, c) && c->rel_len) {
        path_map_bind(w->pm, fh, len, c->node, c->rel, c->rel_len, c->rel_cut);
    } else if (pos_live(w, c) && c->node == path_map_root(w->pm)) {
        path_map_set_root(w->pm, fh, len, NULL, 0); /* the namespace's root */
    }
    pos_node(w, c, path_map_node(w->pm, fh, len));
    if (r->p && index > r->p->main_index && !r->getfh_seen && len <= WHO_KEY_MAX) {
        r->getfh_seen = true; /* the object the main operation reached */
        memcpy(r->primary, fh, len);
        r->primary_len = (uint8_t)len;
    }
}

static const struct prog_step *find_step(const struct prog *p, uint8_t step)
{
    for (uint16_t i = 0; p && i < p->n; i++)
        if (p->s[i].step == step) return &p->s[i];
    return NULL;
}

static void on_fact(void *ctx, const struct nfs_name_fact *f)
{
    struct who *w = ctx;
    if (!w->scratch_reply) {
        prog_add(&w->scratch, f);
        return;
    }
    struct run *r = &w->run;
    if (!r->active) return;
    switch (f->step) {
    case NN_FH:
        advance(w, r, f->index);
        if (r->p && r->next < r->p->n && r->p->s[r->next].step == NN_GETFH) r->next++;
        got_fh(w, r, f->index, f->a, f->alen);
        break;
    case NN_DIRENT:
        advance(w, r, f->index);
        if (pos_live(w, &r->cur)) {
            struct fh_pos e = r->cur; /* a name below the directory (or below names pending) */
            pos_down(&e, f->a, f->alen);
            path_map_bind(w->pm, f->b, f->blen, e.node, e.rel, e.rel_len, e.rel_cut);
        }
        break;
    case NN_V3_DIRENT: {
        const struct nfs3_call *c = &r->t->u.v3.call;
        uint32_t dir = path_map_node(w->pm, c->fh, c->fh_len);
        path_map_bind(w->pm, f->b, f->blen, dir, f->a, f->alen, false);
        break;
    }
    case NN_MNT_FH: {
        const struct prog_step *s = find_step(r->p, NN_MNT_PATH);
        if (s) path_map_set_root(w->pm, f->a, f->alen, r->p->arena + s->a_off, s->a_len);
        break;
    }
    default:
        break;
    }
}

/* NFSv3: what a successful reply ties together from the call's fields. */
static const uint8_t *v3_reply(struct who *w, struct run *r, uint32_t *len)
{
    const struct ns_txn *t = r->t;
    const struct nfs3_call *c = &t->u.v3.call;
    const struct nfs3_reply *rep = &t->u.v3.reply;
    if (!t->has_status || rep->status != 0 || !c->fh_len) return NULL;
    bool cut = c->name_len < c->name_wire_len;
    switch (t->proc) {
    case NFS3_LOOKUP: case NFS3_CREATE: case NFS3_MKDIR: case NFS3_SYMLINK: case NFS3_MKNOD:
        if (!rep->obj_fh_len) return NULL;
        path_map_bind(w->pm, rep->obj_fh, rep->obj_fh_len, path_map_node(w->pm, c->fh, c->fh_len),
                      (const uint8_t *)c->name, c->name_len, cut);
        *len = rep->obj_fh_len;
        return rep->obj_fh;
    case NFS3_REMOVE: case NFS3_RMDIR:
        path_map_unlink(w->pm, path_map_find(w->pm, c->fh, c->fh_len), (const uint8_t *)c->name, c->name_len);
        return NULL;
    case NFS3_RENAME: {
        const struct prog_step *s = find_step(r->p, NN_V3_RENAME_TO);
        if (!s) return NULL;
        uint32_t to = path_map_node(w->pm, r->p->arena + s->a_off, s->a_len);
        path_map_rename(w->pm, path_map_find(w->pm, c->fh, c->fh_len), (const uint8_t *)c->name, c->name_len,
                        to, r->p->arena + s->b_off, s->b_len);
        return NULL;
    }
    default:
        return NULL;
    }
}

const uint8_t *who_names_reply(struct who *w, const struct ns_txn *t, uint32_t *len)
{
    struct run *r = &w->run;
    const uint8_t *fh = NULL;
    if (!r->active || r->txn_id != t->id) {
        if (!(t->kind == NS_TXN_NFS3 && t->reply_frame && t->call_frame)) return NULL;
        on_begin(w, t, true); /* a reply not decoded (no body): its call's fields still tell */
        w->scratch_reply = false;
    }
    if (t->kind == NS_TXN_NFS4 && r->p) {
        /* the steps of operations that succeeded: a COMPOUND stops at the first failure */
        uint32_t ok = 0, op, st;
        while (ns_txn_res(t, ok, &op, &st) && st == 0) ok++;
        advance(w, r, ok);
        if (r->getfh_seen) {
            fh = r->primary;
            *len = r->primary_len;
        }
    } else if (t->kind == NS_TXN_NFS3 && t->call_frame) {
        fh = v3_reply(w, r, len);
    }
    if (r->p) ((struct prog *)r->p)->txn_id = 0; /* the slot is free again */
    r->active = false;
    return fh;
}
