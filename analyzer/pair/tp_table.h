/* The joiner's tables: entries in one array (grown by doubling, amortized:
 * no allocation per entry) indexed by an open-addressing hash, all within
 * one memory budget. An entry that does not fit is refused and the caller
 * counts it. */
#ifndef NFSSCOPE_TP_TABLE_H
#define NFSSCOPE_TP_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp_mem {
    uint64_t used, cap, peak;
};

/* Grow *p (n elements of size each, room for *cap) to hold one more, within
 * m; false (nothing changed) when out of budget or memory. */
bool tp_grow(struct tp_mem *m, void **p, size_t size, size_t n, size_t *cap);
void tp_free(struct tp_mem *m, void *p, size_t size, size_t cap);

struct tp_table {
    size_t size;        /* bytes per entry */
    void *e;            /* entries */
    uint32_t *hash;     /* each entry's hash */
    size_t n, cap_e, cap_h; /* entries; room in e, in hash */
    uint32_t *slot;     /* entry index + 1; 0: empty */
    size_t nslot;       /* a power of two, at least twice n */
};

void tp_table_init(struct tp_table *t, size_t entry_size);
void tp_table_free(struct tp_table *t, struct tp_mem *m);
static inline void *tp_table_at(const struct tp_table *t, size_t i) { return (char *)t->e + i * t->size; }

/* Walk the entries of hash h: *pos starts at 0; returns the next entry's
 * index with this hash (the caller compares keys), or -1 at the end. */
long tp_table_next(const struct tp_table *t, uint32_t h, size_t *pos);
/* Append entry (copied) under hash h: its index, or -1 past the budget. */
long tp_table_add(struct tp_table *t, struct tp_mem *m, uint32_t h, const void *entry);

/* A 32-bit hash of 64-bit words, keyed by seed. */
uint32_t tp_hash(uint64_t seed, const uint64_t *w, size_t n);

#endif
