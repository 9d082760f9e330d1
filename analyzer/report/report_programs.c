/* Non-NFS RPC programs per procedure (nfsscope/report.h). */
#include "report_programs.h"

#include <stdlib.h>

#include "nfsscope/txn.h"

ns_report_programs *ns_report_programs_new(ns_txn_fn next, void *next_ctx)
{
    struct ns_report_programs *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->next = next;
    p->next_ctx = next_ctx;
    return p;
}

void ns_report_programs_free(ns_report_programs *p) { free(p); }

void ns_report_programs_on_txn(void *ctx, const struct ns_txn *t)
{
    struct ns_report_programs *p = ctx;
    if (p->next) p->next(p->next_ctx, t);
    /* NFS (and its callbacks) have the Operations table; orphan replies have
     * no program. */
    if (t->kind == NS_TXN_NFS3 || t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB || !t->call_frame) return;
    /* a call the snapshot length cut inside its header counts in the RPC
     * totals; its program row is not known */
    if (t->call_header_cut && !(t->prog_known && t->vers_known && t->proc_known)) return;
    /* nor is an NFS call so cut another program (at -s 96 every NFS call) */
    if (t->call_header_cut && t->prog == 100003) return;
    struct program_row *r = NULL;
    for (size_t i = 0; i < p->n; i++)
        if (p->rows[i].prog == t->prog && p->rows[i].vers == t->vers && p->rows[i].proc == t->proc) { r = &p->rows[i]; break; }
    if (!r) {
        if (p->n == PROGRAMS_MAX) { p->overflow++; return; }
        r = &p->rows[p->n++];
        r->prog = t->prog;
        r->vers = t->vers;
        r->proc = t->proc;
    }
    r->calls++;
    if (t->reply_frame) {
        bool err = t->reply_stat != NS_REPLY_ACCEPTED || t->rpc_status != NS_RPC_SUCCESS ||
                   (t->kind == NS_TXN_MOUNT && t->has_status && t->status != 0);
        r->errors += err;
    }
    int64_t lat = ns_txn_latency_ns(t);
    if (lat >= 0) ns_latency_add(&r->latency, (uint64_t)lat);
}

static int cmp_row(const void *x, const void *y)
{
    const struct program_row *a = x, *b = y;
    if (a->prog != b->prog) return a->prog < b->prog ? -1 : 1;
    if (a->vers != b->vers) return a->vers < b->vers ? -1 : 1;
    return a->proc < b->proc ? -1 : a->proc > b->proc;
}

void programs_sort(struct ns_report_programs *p)
{
    if (p->n) qsort(p->rows, p->n, sizeof *p->rows, cmp_row);
}
