/* Connection records: live ones never dropped nor moved, a closed one kept
 * while a transaction of it is outstanding, closed ones dropped oldest first
 * beyond 4096 or a quarter of the flows pool (or when the pool is full), ids never
 * reused and every kept id found again after many drops (the id table's
 * deletions). Expected values follow the rule in conn_table.h. */
#include <stdlib.h>

#include "check.h"
#include "conn_table.h"

static void test_lifetime(void)
{
    struct memcap mc;
    memcap_init(&mc, 1 << 20);
    struct conn_table *t = conn_table_new(&mc);
    struct ns_conn *live = conn_table_add(t);   /* c1: its flow never goes */
    struct ns_conn *busy = conn_table_add(t);   /* c2: flow gone, a call outstanding */
    CHECK(live && busy);
    conn_table_txn_start(t, 2);
    conn_table_flow_gone(t, 2);
    for (uint32_t i = 3; i <= 20000; i++) {
        struct ns_conn *c = conn_table_add(t);
        CHECK(c != NULL);
        if (!c) break;
        c->calls = 1;
        if (i % 50) conn_table_flow_gone(t, i); /* one in fifty stays open */
    }
    CHECK_EQ_U(conn_table_last_id(t), 20000);
    CHECK(conn_table_get(t, 1) == live);         /* never moved */
    CHECK(conn_table_get(t, 2) == busy);         /* outstanding call: kept */
    CHECK(conn_table_get(t, 4) == NULL);         /* oldest closed: dropped */
    uint32_t kept = 0, open_lost = 0;
    for (uint32_t i = 1; i <= 20000; i++) {
        const struct ns_conn *c = conn_table_get(t, i);
        if (c) kept++;
        if (c && c->id != i) CHECK_EQ_U(c->id, i);
        if (i % 50 == 0 && !c) open_lost++;
    }
    CHECK_EQ_U(open_lost, 0);                   /* open ones all kept */
    CHECK_EQ_U(kept, conn_table_kept(t));
    CHECK_EQ_U(conn_table_dropped(t) + kept, 20000);
    CHECK_EQ_U(conn_table_dropped_sum(t)->calls, conn_table_dropped(t));
    CHECK(conn_table_get(t, 0) == NULL && conn_table_get(t, 20001) == NULL);
    /* the call ends: c2 is now the newest closed record, dropped last */
    conn_table_txn_end(t, 2);
    CHECK(conn_table_get(t, 2) == busy);
    uint64_t before = conn_table_dropped(t);
    conn_table_flow_gone(t, 50);                 /* one more closed: the oldest goes, not c2 */
    CHECK_EQ_U(conn_table_dropped(t), before + 1);
    CHECK(conn_table_get(t, 2) == busy);
    CHECK(mc.used[MEM_FLOWS] <= mc.cap[MEM_FLOWS]);
    conn_table_free(t);
    CHECK_EQ_U(mc.total_used, 0);
}

/* Every record live: the pool fills and a new connection gets none. */
static void test_all_live(void)
{
    struct memcap mc;
    memcap_init(&mc, 1 << 20);
    struct conn_table *t = conn_table_new(&mc);
    uint32_t made = 0;
    while (made < 100000 && conn_table_add(t)) made++;
    CHECK(made > 100 && made < 100000);
    CHECK_EQ_U(conn_table_dropped(t), 0);
    conn_table_flow_gone(t, 7);                  /* one closes: its slot is taken again */
    CHECK(conn_table_add(t) != NULL);
    CHECK_EQ_U(conn_table_dropped(t), 1);
    CHECK(conn_table_get(t, 7) == NULL);
    conn_table_free(t);
    CHECK_EQ_U(mc.total_used, 0);
}

/* Under the default 512 MiB cap the quarter of the pool holds far more than
 * 4096 records, yet no more than 4096 closed ones are kept: memory stays flat
 * however long the capture. */
static void test_closed_count_bound(void)
{
    struct memcap mc;
    memcap_init(&mc, 512ull << 20);
    struct conn_table *t = conn_table_new(&mc);
    for (uint32_t i = 1; i <= 10000; i++) {
        struct ns_conn *c = conn_table_add(t);
        CHECK(c != NULL);
        if (!c) break;
        c->calls = 1;
        if (i > 10) conn_table_flow_gone(t, i); /* c1..c10 stay open */
    }
    CHECK_EQ_U(conn_table_kept(t), 10 + 4096);
    CHECK_EQ_U(conn_table_dropped(t), 10000 - 10 - 4096);
    CHECK_EQ_U(conn_table_dropped_sum(t)->calls, 10000 - 10 - 4096);
    CHECK(conn_table_get(t, 5) != NULL);                 /* open */
    CHECK(conn_table_get(t, 11) == NULL);                /* oldest closed */
    CHECK(conn_table_get(t, 10000 - 4096) == NULL);
    CHECK(conn_table_get(t, 10000 - 4095) != NULL);      /* the 4096 closed last */
    conn_table_free(t);
    CHECK_EQ_U(mc.total_used, 0);
}

int main(void)
{
    test_closed_count_bound();
    test_lifetime();
    test_all_live();
    return check_done("test_conn_table");
}
