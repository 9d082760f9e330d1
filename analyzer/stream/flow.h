/* Flow table: transport 5-tuple -> flow, with a capped pool, LRU eviction
 * (closed flows first) and stable connection ids for flows that carry RPC. */
#ifndef NFSSCOPE_FLOW_H
#define NFSSCOPE_FLOW_H
#include <stdbool.h>
#include <stdint.h>

#include "memcap.h"
#include "nfsscope/stats.h"
#include "rpc_record.h"
#include "tcp_conn.h"
#include "tcp_reasm.h"

struct flow_key {
    uint8_t proto, family;
    uint16_t port[2];       /* side 0 is the lower (addr, port) */
    uint16_t pad;           /* zero: the key is hashed as five 64-bit words */
    uint8_t addr[2][16];
};

/* The RPC stage's part of a flow: rpc/rpc_stage.c alone writes it (it is
 * declared here because stream/ sees no header of rpc/). All zero in a new
 * flow: no connection record, server unknown. */
struct flow_rpc {
    uint32_t conn_id;       /* its connection record (c1, c2, ...); 0 until the flow carries RPC */
    uint8_t server1;        /* side index of the server plus one; 0 unknown (flow_server) */
};

/* A flow: the table's own fields, then one part per module that keeps state
 * in it, each written by that module alone. A new flow is all zero but its
 * key (and the table's fields); a TCP flow is then started by the
 * connection policy (tcp_conn_start). */
struct flow {
    /* the table's (flow.c) */
    struct flow_key key;
    uint32_t hnext;         /* hash chain (index + 1; 0 = end) */
    uint32_t lru_prev, lru_next;
    bool in_use;
    bool closed;            /* the connection ended (set by its policy, tcp_conn.c): such flows are evicted
                             * first and removed after flow_sweep_rules.linger_ns */
    int64_t last_ts;        /* last looked up */
    /* the parts */
    struct flow_rpc rpc;        /* the RPC stage (rpc/rpc_stage.c) */
    struct tcp_conn tcp_conn;   /* the TCP connection policy (tcp_conn.c) */
    struct tcp_dir tcp[2];      /* TCP reassembly (tcp_reasm.c), by sending side */
    struct rec_dir rec[2];      /* ONC RPC record marking (rpc_record.c), by sending side */
};

/* Side index of the flow's server, -1 while unknown. */
static inline int flow_server(const struct flow *f) { return (int)f->rpc.server1 - 1; }

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
