#include <stdlib.h>
#include <string.h>

#include "cli_report.h"

/* Most frequent first; ties by name, so the order never depends on memory. */
static int cmp_op(const void *a, const void *b)
{
    const struct op_row *x = a, *y = b;
    if (x->s->count != y->s->count) return x->s->count > y->s->count ? -1 : 1;
    if (x->s->in_compounds != y->s->in_compounds) return x->s->in_compounds > y->s->in_compounds ? -1 : 1;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->key < y->key ? -1 : x->key > y->key);
}

size_t report_op_rows(const struct ns_stats *st, struct op_row *rows, size_t cap)
{
    size_t n = 0;
    for (uint32_t k = 0; k < NS_OPKEY_MAX && n < cap; k++)
        if (st->ops[k] && (st->ops[k]->count || st->ops[k]->in_compounds))
            rows[n++] = (struct op_row){k, ns_op_key_name(k), st->ops[k]};
    qsort(rows, n, sizeof *rows, cmp_op);
    return n;
}

static int cmp_status(const void *a, const void *b)
{
    const struct status_row *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

size_t report_status_rows(const struct ns_stats *st, struct status_row *rows, size_t cap)
{
    size_t n = 0;
    for (uint32_t i = 0; i < st->nstatus && n < cap; i++) {
        const struct ns_status_count *s = &st->status[i];
        rows[n++] = (struct status_row){s->vers == 3 ? ns_nfs3_status_name(s->status) : ns_nfs4_status_name(s->status),
                                        s->count};
    }
    qsort(rows, n, sizeof *rows, cmp_status);
    return n;
}

size_t report_versions(uint32_t bits, const char **names, size_t cap)
{
    static const char *const v4[] = {"v4.0", "v4.1", "v4.2", "v4.3", "v4.4", "v4.5", "v4.6", "v4.7"};
    size_t n = 0;
    if ((bits & NS_VERS_BIT(2, 0)) && n < cap) names[n++] = "v2";
    if ((bits & NS_VERS_BIT(3, 0)) && n < cap) names[n++] = "v3";
    for (int m = 0; m < 8; m++)
        if ((bits & NS_VERS_BIT(4, m)) && n < cap) names[n++] = v4[m];
    return n;
}
