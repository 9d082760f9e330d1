/* Per-frame slot facts: the verdict, expected sequence ID, outstanding
 * requests and granted slots told for each SEQUENCE call, resend and reply,
 * and the amendment of a call refused with NFS4ERR_SEQ_MISORDERED. The
 * expected values are worked out by hand in the comments (RFC 8881 2.10.6.1). */
#include "session_build.h"

static const uint16_t GA[] = {OP_SEQUENCE, OP_PUTROOTFH, OP_GETATTR, 0};
static const uint16_t RD[] = {OP_SEQUENCE, OP_PUTFH, OP_READ, 0};

struct amends {
    unsigned n;
    uint64_t frame[8], by[8];
    uint8_t kind[8];
};

static void on_amend(void *ctx, uint64_t frame, uint8_t amend, const struct ns_txn *t, uint64_t by_frame)
{
    struct amends *a = ctx;
    CHECK(t != NULL);
    if (a->n == 8) return;
    a->frame[a->n] = frame;
    a->kind[a->n] = amend;
    a->by[a->n++] = by_frame;
}

/* A call on session sess, its facts in fi. */
static void sq(struct env *e, struct ns_txn *t, uint64_t f, unsigned sess, uint32_t slot, uint32_t seqid,
               const uint16_t *ops, struct sess_frame_info *fi)
{
    call(t, f, (int64_t)f * MS, 1, ops);
    seq(t, sess, slot, seqid);
    sess_on_call(e->m, t, &e->conns[0], fi);
}

/* Its reply (highest and target slot ID 3), the reply's facts in fi. */
static void ans(struct env *e, struct ns_txn *t, uint64_t f, uint32_t status, struct sess_frame_info *fi)
{
    reply(t, f, (int64_t)f * MS, status);
    slots_limits(t, 3, 3);
    sess_on_reply(e->m, t, &e->conns[0], false, fi);
    sess_on_txn_done(e->m, t, false);
}

#define FACTS(fi, v, hasexp, exp, outst, gr)                                      \
    do {                                                                          \
        CHECK((fi).has_slot);                                                     \
        CHECK_EQ_U((fi).verdict, v);                                              \
        CHECK_EQ_U((fi).has_expected, hasexp);                                    \
        if (hasexp) CHECK_EQ_U((fi).expected_seqid, exp);                         \
        CHECK_EQ_U((fi).outstanding, outst);                                      \
        CHECK_EQ_U((fi).granted, gr);                                             \
    } while (0)

static void test_verdicts(void)
{
    struct env e;
    env_init(&e, NULL);
    struct amends am = {0};
    struct analysis_amend a = {on_amend, &am};
    sess_set_amend(e.m, &a);
    mount(&e, 1, 0, 1, 0x11, 1, 0, 8, 4); /* frames 1-4: 4 of 8 slots granted, so slot IDs 0..3 */
    struct ns_txn t, u, w;
    struct sess_frame_info fi;

    /* slot 0, never used, CREATE_SESSION seen: a new slot starts at 1 */
    sq(&e, &t, 10, 1, 0, 1, GA, &fi);
    FACTS(fi, NS_SLOT_NEW, true, 1, 1, 4);
    CHECK(fi.slot == 0 && fi.seqid == 1 && fi.sessionid[0] == 0x5e && fi.sessionid[15] == 1);
    ans(&e, &t, 11, 0, &fi); /* reply: the call's facts, nothing outstanding, sr_highest_slotid 3 -> 4 granted */
    FACTS(fi, NS_SLOT_NEW, true, 1, 0, 4);

    sq(&e, &t, 12, 1, 0, 2, GA, &fi); /* 1 + 1 */
    FACTS(fi, NS_SLOT_NEW, true, 2, 1, 4);
    sq(&e, &u, 13, 1, 0, 2, GA, &fi); /* the same again, new XID, first still in flight: a retry */
    FACTS(fi, NS_SLOT_REPLAY, true, 3, 1, 4);
    ans(&e, &t, 14, 0, &fi); /* the first call's facts; the slot now holds the retry: still 1 outstanding */
    FACTS(fi, NS_SLOT_NEW, true, 2, 1, 4);
    ans(&e, &u, 15, 0, &fi);
    FACTS(fi, NS_SLOT_REPLAY, true, 3, 0, 4);

    sq(&e, &t, 16, 1, 0, 2, RD, &fi); /* seqid 2 again with other operations */
    FACTS(fi, NS_SLOT_FALSE_RETRY, true, 3, 1, 4);
    ans(&e, &t, 17, 10076, &fi);
    FACTS(fi, NS_SLOT_FALSE_RETRY, true, 3, 0, 4);

    sq(&e, &t, 18, 1, 0, 5, GA, &fi); /* 5 where 3 is due */
    FACTS(fi, NS_SLOT_GAP, true, 3, 1, 4);
    ans(&e, &t, 19, 10063, &fi); /* refused: frame 18 amended by 19 */
    FACTS(fi, NS_SLOT_GAP, true, 3, 0, 4);
    CHECK_EQ_U(am.n, 1);
    CHECK(am.frame[0] == 18 && am.by[0] == 19 && am.kind[0] == NS_AMEND_MISORDERED_CAUSE);

    sq(&e, &t, 20, 1, 0, 4, GA, &fi); /* last call 5: 4 goes backwards, 6 was due */
    FACTS(fi, NS_SLOT_BACKWARDS, true, 6, 1, 4);
    ans(&e, &t, 21, 0, &fi);

    sq(&e, &t, 22, 1, 1, 1, GA, &fi); /* slot 1 */
    FACTS(fi, NS_SLOT_NEW, true, 1, 1, 4);
    sq(&e, &u, 23, 1, 1, 2, GA, &fi); /* the next sequence ID before the reply: the slot is busy */
    FACTS(fi, NS_SLOT_IN_FLIGHT, true, 2, 1, 4);

    sq(&e, &w, 24, 1, 7, 1, GA, &fi); /* slot 7 > sr_highest_slotid 3 */
    FACTS(fi, NS_SLOT_ABOVE_GRANTED, true, 1, 2, 4);
    sq(&e, &w, 25, 1, 2000, 1, GA, &fi); /* above the grant, and beyond the tracked table */
    FACTS(fi, NS_SLOT_ABOVE_GRANTED, false, 0, 2, 4);

    /* a resend (same XID) of the call in frame 26 on slot 2: judged like a call, the same sequence ID */
    sq(&e, &w, 26, 1, 2, 1, GA, &fi);
    FACTS(fi, NS_SLOT_NEW, true, 1, 3, 4);
    sess_on_retransmit(e.m, &w, 27, 27 * MS, &fi);
    FACTS(fi, NS_SLOT_REPLAY, true, 2, 3, 4);
    CHECK_EQ_U(am.n, 1);

    /* a session first seen mid-capture: nothing granted known, first sightings not judged */
    sq(&e, &t, 30, 2, 0, 77, GA, &fi);
    FACTS(fi, NS_SLOT_FIRST, false, 0, 1, 0);
    sq(&e, &t, 31, 2, 1500, 1, GA, &fi); /* beyond NS_SLOTS_MAX, no grant to compare with */
    FACTS(fi, NS_SLOT_UNTRACKED, false, 0, 1, 0);
    /* a resend for a session never seen */
    call(&t, 32, 32 * MS, 1, GA);
    seq(&t, 9, 0, 1);
    sess_on_retransmit(e.m, &t, 33, 33 * MS, &fi);
    FACTS(fi, NS_SLOT_UNTRACKED, false, 0, 0, 0);

    /* no SEQUENCE: nothing to say */
    static const uint16_t ex[] = {OP_EXCHANGE_ID, 0};
    call(&t, 40, 40 * MS, 1, ex);
    sess_on_call(e.m, &t, &e.conns[0], &fi);
    CHECK(!fi.has_slot && fi.verdict == NS_SLOT_NONE);

    /* CB_SEQUENCE: judged on the back channel's own table (issue 24): slot 0's
     * first call after CREATE_SESSION expects 1: new, 1 callback outstanding,
     * the back channel's grant (1) told */
    call(&t, 41, 41 * MS, 1, GA);
    t.kind = NS_TXN_NFS4_CB;
    t.backchannel = true;
    seq(&t, 1, 0, 1);
    sess_on_call(e.m, &t, &e.conns[0], &fi);
    FACTS(fi, NS_SLOT_NEW, true, 1, 1, 1);
    env_free(&e);
}

int main(void)
{
    test_verdicts();
    return check_done("test_session_verdicts");
}
