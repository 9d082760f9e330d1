/* Connection records: one per flow that carried RPC, id = order of first
 * appearance (c1, c2, ...). A record lives while its flow lives; once the
 * flow is gone (closed and lingered out, evicted, reused) and no transaction
 * of it is outstanding, the record is kept as a closed-connection summary.
 * Closed summaries are bounded: the 4096 closed last, at most a quarter of
 * the flows pool, and fewer when the pool needs room for a new connection; the oldest closed
 * first are dropped, their figures added to one total (counted, reported).
 * Records never move: a pointer stays valid until its record is dropped;
 * ids are never reused, so a lookup by id says whether it still lives. */
#ifndef NFSSCOPE_CONN_TABLE_H
#define NFSSCOPE_CONN_TABLE_H
#include <stdbool.h>
#include <stdint.h>

#include "memcap.h"
#include "nfsscope/stats.h"

struct conn_table;

/* NULL when out of memory. */
struct conn_table *conn_table_new(struct memcap *mc);
void conn_table_free(struct conn_table *t);
/* A new zeroed record with the next id, or NULL when no room can be made
 * (every record belongs to a live flow or an outstanding call). */
struct ns_conn *conn_table_add(struct conn_table *t);
/* The record with this id, or NULL (never made, or dropped). */
struct ns_conn *conn_table_get(struct conn_table *t, uint32_t id);
/* Its TCP segment counts (ns_conn_tcp; kept saturating at 2^32-1
 * retransmitted and 65,535 out of order): false and zeros as conn_table_get
 * NULL. */
bool conn_table_tcp_get(struct conn_table *t, uint32_t id, struct ns_conn_tcp *out);
void conn_table_tcp_add(struct conn_table *t, uint32_t id, uint64_t retrans, uint64_t ooo);
/* Highest id given so far (ids 1..n; dropped ones look up as NULL). */
uint32_t conn_table_last_id(const struct conn_table *t);
/* Its flow is gone (idempotent). */
void conn_table_flow_gone(struct conn_table *t, uint32_t id);
/* A transaction of the connection starts / leaves the RPC stage: a closed
 * record is not dropped while one is outstanding. */
void conn_table_txn_start(struct conn_table *t, uint32_t id);
void conn_table_txn_end(struct conn_table *t, uint32_t id);
/* Closed records dropped, and their figures added up (id = 0, first_ts the
 * earliest, last_ts the latest, nfs_versions or-ed, closed true). */
uint64_t conn_table_dropped(const struct conn_table *t);
const struct ns_conn *conn_table_dropped_sum(const struct conn_table *t);
/* Records kept (live and closed). */
uint32_t conn_table_kept(const struct conn_table *t);

#endif
