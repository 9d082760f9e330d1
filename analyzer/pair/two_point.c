/* The two-point joiner's public face (nfsscope/two_point.h). */
#include <stdint.h>
#include <stdlib.h>

#include "tp_int.h"

#define DEFAULT_MEMCAP (64ull << 20)

ns_two_point *ns_two_point_new(uint64_t memcap)
{
    ns_two_point *tp = calloc(1, sizeof *tp);
    if (!tp) return NULL;
    tp->mem.cap = memcap ? memcap : DEFAULT_MEMCAP;
    tp->seed = (uint64_t)(uintptr_t)tp * 0x9e3779b97f4a7c15ull; /* results never depend on it */
    tp_table_init(&tp->flows, sizeof(struct tp_flow));
    tp_table_init(&tp->segs, sizeof(struct tp_seg));
    tp_table_init(&tp->srv, sizeof(struct tp_srv_txn));
    return tp;
}

void ns_two_point_free(ns_two_point *tp)
{
    if (!tp) return;
    tp_table_free(&tp->flows, &tp->mem);
    tp_table_free(&tp->segs, &tp->mem);
    tp_table_free(&tp->srv, &tp->mem);
    free(tp->cli);
    free(tp->loss);
    free(tp->findings);
    free(tp->ops);
    free(tp->conns);
    free(tp->clients);
    free(tp);
}

void ns_two_point_frame(ns_two_point *tp, enum ns_tp_side side, const struct ns_frame *f)
{
    if (!tp->finished && (side == NS_TP_CLIENT || side == NS_TP_SERVER)) tp_segment_frame(tp, side, f);
}

void ns_two_point_txn(ns_two_point *tp, enum ns_tp_side side, const struct ns_txn *t, const struct ns_conn *c,
                      struct ns_tp_split *out)
{
    if (tp->finished || (side != NS_TP_CLIENT && side != NS_TP_SERVER)) {
        if (out) *out = (struct ns_tp_split){0};
        return;
    }
    tp_match_txn(tp, side, t, c, out);
}

void ns_two_point_finish(ns_two_point *tp)
{
    if (tp->finished) return;
    tp->finished = true;
    tp_figures(tp);
}

const struct ns_tp_result *ns_two_point_result(const ns_two_point *tp) { return &tp->r; }
