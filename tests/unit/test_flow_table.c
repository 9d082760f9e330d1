/* Flow table sizes (flow_table_new): a table that starts small (16 buckets,
 * 4 flows: the fuzz targets') grows by the same code into what a table with
 * the defaults (1024, 256) holds, so the two find the same flows, evict the
 * same ones under the same cap and visit them in the same order. */
#include <stdlib.h>

#include "check.h"
#include "flow.h"

#define FLOWS 3000u

static void key_of(uint32_t n, struct flow_key *k)
{
    struct ns_addr a = {4, {10, 0, (uint8_t)(n >> 8), (uint8_t)n}}, b = {4, {10, 1, 0, 1}};
    int side;
    flow_key_make(k, 6, &a, (uint16_t)(40000 + n % 7), &b, 2049, &side);
}

static uint64_t evicted_sum;
static void on_evict(void *ctx, struct flow *f)
{
    (void)ctx;
    evicted_sum += f->key.addr[0][2] << 8 | f->key.addr[0][3];
}

static void count_flow(void *ctx, struct flow *f)
{
    uint64_t *sum = ctx;
    *sum = *sum * 31 + (f->key.addr[0][2] << 8 | f->key.addr[0][3]);
}

/* Insert FLOWS flows under a cap of mc_bytes; return what the table holds. */
static void fill(uint32_t nbuckets, uint32_t slots, uint64_t mc_bytes, uint32_t *count, uint64_t *evictions,
                 uint64_t *evicted, uint64_t *order, uint32_t *found)
{
    struct memcap mc;
    memcap_init(&mc, mc_bytes);
    evicted_sum = 0;
    struct flow_table *t = flow_table_new(&mc, nbuckets, slots, on_evict, NULL);
    CHECK(t != NULL);
    if (!t) return;
    bool created;
    for (uint32_t n = 0; n < FLOWS; n++) {
        struct flow_key k;
        key_of(n, &k);
        struct flow *f = flow_lookup(t, &k, n, &created);
        CHECK(f && created);
    }
    *found = 0;
    for (uint32_t n = 0; n < FLOWS; n++) {
        struct flow_key k;
        key_of(n, &k);
        struct flow *f = flow_find(t, &k, FLOWS + n);
        if (f) {
            (*found)++;
            CHECK(memcmp(&f->key, &k, sizeof k) == 0);
        }
    }
    *count = flow_count(t);
    *evictions = flow_evictions(t);
    *evicted = evicted_sum;
    *order = 0;
    flow_foreach(t, count_flow, order);
    CHECK(mc.used[MEM_FLOWS] <= mc.cap[MEM_FLOWS]);
    flow_table_free(t);
}

static void test_small_same_as_default(uint64_t mc_bytes, bool evicts)
{
    uint32_t c0, c1, f0, f1;
    uint64_t e0, e1, s0, s1, o0, o1;
    fill(0, 0, mc_bytes, &c0, &e0, &s0, &o0, &f0);
    fill(16, 4, mc_bytes, &c1, &e1, &s1, &o1, &f1);
    CHECK_EQ_U(c1, c0);
    CHECK_EQ_U(f1, f0);
    CHECK_EQ_U(f0, c0);
    CHECK_EQ_U(e1, e0);
    CHECK_EQ_U(e0 + c0, FLOWS);
    CHECK_EQ_U(s1, s0);
    CHECK_EQ_U(o1, o0);
    CHECK(evicts ? e0 > 0 : e0 == 0);
}

/* Keys that differ only where an IPv6 client's number is (the last bytes of
 * its address) spread over the buckets under any key, the zero key
 * included: before the hash's finalizer, fd01::1 to fd01::fa0 shared one
 * chain. */
static void test_ipv6_spread(uint64_t seed)
{
    struct memcap mc;
    memcap_init(&mc, 64u << 20);
    struct flow_table *t = flow_table_new(&mc, 0, 0, on_evict, NULL);
    CHECK(t != NULL);
    if (!t) return;
    flow_table_set_seed(t, seed);
    struct ns_addr srv = {6, {0xfd, 0, [15] = 1}};
    bool created;
    for (uint32_t n = 1; n <= 4000; n++) {
        struct ns_addr cl = {6, {0xfd, 1, [12] = (uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n}};
        struct flow_key k;
        int side;
        flow_key_make(&k, 6, &cl, 40000, &srv, 2049, &side);
        CHECK(flow_lookup(t, &k, n, &created) && created);
    }
    CHECK_EQ_U(flow_count(t), 4000);
    uint32_t longest = flow_longest_chain(t);
    if (longest > 12) CHECK_EQ_U(longest, 12); /* 4,000 flows in at least 2,048 buckets */
    flow_table_free(t);
}

int main(void)
{
    test_ipv6_spread(0);
    test_ipv6_spread(0x5eed5eed5eed5eedULL);
    test_small_same_as_default(64u << 20, false); /* room for all: grown from 4 slots and 16 buckets */
    test_small_same_as_default(1u << 20, true); /* the cap stops the pool: the same flows evicted */
    return check_done("test_flow_table");
}
