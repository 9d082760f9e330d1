/* The plugin's per-frame table (dissector/frame_table.c): records found by
 * frame number, growth within the cap, the cap refusing and counting, the
 * findings of a frame kept once each, the extra ones counted. */
#include "check.h"
#include "frame_table.h"

static void records(void)
{
    struct frame_table t;
    frame_table_init(&t, 64u << 20);
    CHECK(frame_table_get(&t, 1) == NULL);
    struct frame_rec *r = frame_table_get_or_add(&t, 5);
    CHECK(r != NULL);
    r->conn_id = 3;
    /* far-away frames and many records make both arrays grow */
    for (uint64_t n = 10; n < 100000; n += 7) {
        struct frame_rec *x = frame_table_get_or_add(&t, n);
        CHECK(x != NULL);
        if (x) x->xid = (uint32_t)n;
    }
    CHECK_EQ_U(frame_table_get(&t, 5)->conn_id, 3);
    CHECK_EQ_U(frame_table_get(&t, 10 + 7 * 1000)->xid, 10 + 7 * 1000);
    CHECK(frame_table_get(&t, 11) == NULL);
    CHECK(frame_table_get(&t, 1u << 30) == NULL);
    CHECK(frame_table_get_or_add(&t, 5) == frame_table_get(&t, 5)); /* not a second record */
    CHECK_EQ_U(t.frames_unrecorded, 0);
    CHECK(t.used <= t.cap);
    frame_table_free(&t);
    CHECK(frame_table_get(&t, 5) == NULL);
}

static void cap(void)
{
    struct frame_table t;
    frame_table_init(&t, 0);
    CHECK(frame_table_get_or_add(&t, 7) == NULL);
    CHECK(frame_table_get_or_add(&t, 9) == NULL);
    CHECK_EQ_U(t.frames_unrecorded, 2);
    CHECK_EQ_U(t.first_unrecorded, 7);
    frame_table_free(&t);

    /* room for the index and the first block of records, not for more */
    uint64_t c = 4096 * sizeof(uint32_t) + 1024 * sizeof(struct frame_rec);
    frame_table_init(&t, c);
    unsigned ok = 0;
    for (uint64_t n = 1; n < 4000; n++)
        if (frame_table_get_or_add(&t, n)) ok++;
    CHECK_EQ_U(ok, 1024);
    CHECK_EQ_U(t.frames_unrecorded, 4000 - 1 - 1024);
    CHECK_EQ_U(t.first_unrecorded, 1025);
    CHECK(t.used <= c);
    CHECK(frame_table_get(&t, 1024) != NULL);
    frame_table_free(&t);
}

static void findings(void)
{
    struct frame_rec r = {0};
    frame_rec_add_finding(&r, 4);
    frame_rec_add_finding(&r, 4);
    CHECK_EQ_U(r.nfindings, 1);
    for (uint32_t id = 10; id < 10 + FR_FINDINGS_MAX + 3; id++) frame_rec_add_finding(&r, id);
    CHECK_EQ_U(r.nfindings, FR_FINDINGS_MAX);
    CHECK_EQ_U(r.findings_more, 4);
    CHECK(frame_rec_has_finding(&r, 4));
    CHECK(!frame_rec_has_finding(&r, 5));
}

int main(void)
{
    records();
    cap();
    findings();
    return check_done("test_frame_table");
}
