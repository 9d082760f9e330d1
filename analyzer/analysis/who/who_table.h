/* A bounded map from a byte key (a file handle, a credential, an address)
 * to a fixed-size record, with least-recently-used eviction: the storage of
 * the path map and of the per-file, per-user and per-client tables. Records
 * live in one array grown by doubling under the memory cap (MEM_SESSIONS) up
 * to a maximum count; when neither more memory nor more records may be had
 * the least recently used record is reused, and that eviction counted. A
 * record is named by its index and a generation that changes on reuse, so
 * a reference kept elsewhere (a transaction's file) knows when it is stale. */
#ifndef NFSSCOPE_WHO_TABLE_H
#define NFSSCOPE_WHO_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memcap.h"

#define WHO_KEY_MAX 128 /* NFS4_FHSIZE: the longest key */
#define WHO_NONE UINT32_MAX

struct who_head {
    uint32_t hash;
    uint32_t chain;            /* next record of the same hash bucket */
    uint32_t lru_prev, lru_next;
    uint32_t gen;              /* changes when the record is reused */
    uint8_t key_len;
    uint8_t key[WHO_KEY_MAX];
};

/* Called before a record is reused (or the table freed): the owner lets go
 * of what points at it. */
typedef void (*who_evict_fn)(void *ctx, uint32_t idx);

struct who_table {
    struct memcap *mc;
    size_t stride;             /* sizeof(struct who_head) + payload, aligned */
    uint8_t *rec;
    uint32_t n, cap, max;      /* used, allocated, at most */
    uint32_t *bucket;          /* max rounded up to a power of two */
    uint32_t mask;
    uint32_t lru_head, lru_tail; /* most / least recently used */
    uint64_t evicted;
    who_evict_fn on_evict;
    void *evict_ctx;
    /* called after the buckets grew (mask changed): an owner's index of
     * its own keyed by the same mask rebuilds itself; false: out of memory */
    bool (*on_rehash)(void *ctx, uint32_t old_mask);
};

uint32_t who_hash(const uint8_t *key, uint32_t len);
/* false: out of memory. payload: bytes of record after the head. max:
 * records at most, and no more than share_div-th of the memory cap's
 * MEM_SESSIONS pool holds (at least 64): a small --memcap makes small
 * tables, not a refusal. */
bool who_table_init(struct who_table *t, struct memcap *mc, size_t payload, uint32_t max, unsigned share_div);
void who_table_free(struct who_table *t);
static inline struct who_head *who_rec(const struct who_table *t, uint32_t idx)
{
    return (struct who_head *)(void *)(t->rec + (size_t)idx * t->stride);
}
static inline void *who_payload(const struct who_table *t, uint32_t idx)
{
    return (uint8_t *)who_rec(t, idx) + sizeof(struct who_head);
}
/* The record of key, WHO_NONE if absent; touch: make it the most recent. */
uint32_t who_find(struct who_table *t, const uint8_t *key, uint32_t len, uint32_t hash, bool touch);
/* The record of key, made (payload zeroed, *fresh set) when absent; WHO_NONE
 * only with an empty key or a table that could hold nothing. */
uint32_t who_get(struct who_table *t, const uint8_t *key, uint32_t len, uint32_t hash, bool *fresh);
/* Forget a record (its slot is reused first). */
void who_drop(struct who_table *t, uint32_t idx);
static inline bool who_live(const struct who_table *t, uint32_t idx, uint32_t gen)
{
    return idx < t->n && who_rec(t, idx)->gen == gen && who_rec(t, idx)->key_len;
}

#endif
