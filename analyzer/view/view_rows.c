/* The report's tables in print order: operations and NFS statuses. */
#include <stdlib.h>
#include <string.h>

#include "nfsscope/view.h"

/* Most frequent first; ties by name, so the order never depends on memory. */
static int cmp_op(const void *a, const void *b)
{
    const struct ns_op_row *x = a, *y = b;
    if (x->s->count != y->s->count) return x->s->count > y->s->count ? -1 : 1;
    if (x->s->in_compounds != y->s->in_compounds) return x->s->in_compounds > y->s->in_compounds ? -1 : 1;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->key < y->key ? -1 : x->key > y->key);
}

size_t ns_op_rows(const struct ns_stats *st, struct ns_op_row *rows, size_t cap)
{
    size_t n = 0;
    for (uint32_t k = 0; k < NS_OPKEY_MAX && n < cap; k++)
        if (st->ops[k] && (st->ops[k]->count || st->ops[k]->in_compounds))
            rows[n++] = (struct ns_op_row){k, ns_op_key_name(k), st->ops[k]};
    qsort(rows, n, sizeof *rows, cmp_op);
    return n;
}

static int cmp_status(const void *a, const void *b)
{
    const struct ns_status_row *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

size_t ns_status_rows(const struct ns_stats *st, struct ns_status_row *rows, size_t cap)
{
    size_t n = 0;
    for (uint32_t i = 0; i < st->nstatus && n < cap; i++) {
        const struct ns_status_count *s = &st->status[i];
        rows[n++] = (struct ns_status_row){ns_nfs_status_name(s->vers, s->status), s->count};
    }
    qsort(rows, n, sizeof *rows, cmp_status);
    return n;
}
