/* Flow table: transport 5-tuple -> flow, with a capped pool, LRU eviction
 * (closed flows first) and stable connection ids for flows that carry RPC. */
#ifndef NFSSCOPE_FLOW_H
#define NFSSCOPE_FLOW_H
#include <stdbool.h>
#include <stdint.h>

#include "memcap.h"
#include "nfsscope/stats.h"
#include "rpc_record.h"
#include "tcp_reasm.h"

struct flow_key {
    uint8_t proto, family;
    uint16_t port[2];       /* side 0 is the lower (addr, port) */
    uint16_t pad;           /* zero: the key is hashed as five 64-bit words */
    uint8_t addr[2][16];
};

enum flow_rpc { FLOW_RPC_UNKNOWN = 0, FLOW_RPC_YES, FLOW_RPC_NO };

struct flow {
    struct flow_key key;
    uint32_t hnext;         /* hash chain (index + 1; 0 = end) */
    uint32_t lru_prev, lru_next;
    uint32_t conn_id;       /* 0 until the flow carries RPC */
    int8_t server;          /* side index of the server, -1 unknown */
    uint8_t rpc;            /* enum flow_rpc */
    bool in_use, closed, mid_stream;
    bool released;          /* closed: buffers given back (a late segment continuing a stream may re-grow them) */
    uint32_t pre_frames;    /* TCP segments before the connection was known to carry RPC */
    uint16_t pre_retrans, pre_ooo; /* ... retransmitted and out-of-order ones (ns_conn_tcp; in what was
                                    * padding: a flow costs the memory cap what it did) */
    uint64_t pre_bytes[2];  /* their payload bytes, by sending side */
    int64_t last_ts;
    int64_t closed_ts;      /* when it was closed (released) */
    struct tcp_dir tcp[2];  /* indexed by sending side */
    struct rec_dir rec[2];
};

struct flow_table;

typedef void (*flow_evict_fn)(void *ctx, struct flow *f);

/* nbuckets (rounded up to a power of two) and first_slots, the flows the
 * pool takes at its first growth, size a new table (0: 1024 and 256); both
 * grow with the flows, so a small table (a fuzz target's) runs the same
 * code as a full one. */
struct flow_table *flow_table_new(struct memcap *mc, uint32_t nbuckets, uint32_t first_slots, flow_evict_fn on_evict,
                                  void *ctx);
void flow_table_free(struct flow_table *t);
/* The secret the bucket hash starts from (ns_config.hash_seed); set before
 * the first flow, ignored after. */
void flow_table_set_seed(struct flow_table *t, uint64_t seed);
/* Flows in the longest bucket chain (a walk of every bucket: for tests and
 * diagnostics, not per frame). */
uint32_t flow_longest_chain(const struct flow_table *t);
/* Build the canonical key; *side is the index of the sender (0 or 1). */
void flow_key_make(struct flow_key *k, uint8_t proto, const struct ns_addr *src, uint16_t sport,
                   const struct ns_addr *dst, uint16_t dport, int *side);
/* Find or create; NULL only if no flow can be made room for. *created tells. */
struct flow *flow_lookup(struct flow_table *t, const struct flow_key *k, int64_t ts, bool *created);
/* Find without creating; NULL if absent. */
struct flow *flow_find(struct flow_table *t, const struct flow_key *k, int64_t ts);
/* What housekeeping does with a flow by how long it has been idle: closed
 * flows after linger_ns are removed (remove_fn first); open flows after
 * retire_ns too (retire_fn first: a connection silent that long with no FIN
 * seen is gone, or its state is not worth keeping); open flows after
 * idle_ns are passed to idle_fn (give back buffers). */
struct flow_sweep_rules {
    int64_t linger_ns, idle_ns, retire_ns;
    void (*remove_fn)(void *ctx, struct flow *f);
    void (*idle_fn)(void *ctx, struct flow *f);
    void (*retire_fn)(void *ctx, struct flow *f);
    void *ctx;
};
/* Housekeeping with bounded work: look at the next max slots of the pool
 * (a clock hand, so every flow is reached in turn). Returns how many flows
 * were removed. */
uint32_t flow_sweep(struct flow_table *t, int64_t now_ns, uint32_t max, const struct flow_sweep_rules *r);
/* Drop a flow now (after the caller released its buffers). */
void flow_remove(struct flow_table *t, struct flow *f);
/* Visit every flow (end of input). */
void flow_foreach(struct flow_table *t, void (*fn)(void *ctx, struct flow *f), void *ctx);
uint64_t flow_evictions(const struct flow_table *t);
uint32_t flow_count(const struct flow_table *t);
/* Endpoint of one side of a key. */
void flow_endpoint(const struct flow_key *k, int side, struct ns_endpoint *e);

#endif
