/* Who and what (issue 25): the path map, and per file, per user and per
 * client address tables of transactions, bytes, errors and latency. Fed by
 * the analysis (calls, replies, transactions handed out) and by the
 * decoders through the name sink; read by the report and front ends
 * through the rows below (nfsscope/who.h wraps them for the public API).
 *
 * Bounds (each a who_table under the memory cap, MEM_SESSIONS, least
 * recently used out, evictions counted): WHO_FILES_MAX files,
 * WHO_USERS_MAX users, WHO_CLIENTS_MAX client addresses, PATH_MAP_MAX
 * handles in the path map, each no more than what an eighth (files), a
 * 32nd (users, clients) or a quarter (path map) of the pool holds. */
#ifndef NFSSCOPE_WHO_H
#define NFSSCOPE_WHO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memcap.h"
#include "nfs_names.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"
#include "who_stats.h"

#define WHO_FILES_MAX 65536u
#define WHO_USERS_MAX 4096u
#define WHO_CLIENTS_MAX 4096u
#define WHO_FILE_CLIENTS 8 /* distinct client addresses told apart per file (more: counted as "more") */

struct who;

/* One row of a table, as the readers see it. */
struct who_file_row {
    const uint8_t *fh;
    uint32_t fh_len;
    const struct who_stats *s;
    uint32_t clients;       /* distinct client addresses (up to WHO_FILE_CLIENTS) */
    bool clients_more;      /* ... and more */
};

enum who_user_kind { WHO_USER_SYS = 1, WHO_USER_GSS = 2, WHO_USER_OTHER = 3 };
struct who_user_row {
    uint8_t kind;           /* enum who_user_kind */
    uint32_t uid, gid;      /* WHO_USER_SYS */
    const uint8_t *gss_handle; /* WHO_USER_GSS: the context handle (first 16 bytes) */
    uint32_t gss_handle_len;
    const struct who_stats *s;
};

struct who_client_row {
    struct ns_addr addr;
    const struct who_stats *s;
};

struct who *who_new(struct memcap *mc);
void who_free(struct who *w);
/* The sink the decoders tell names and handles to. */
const struct nfs_name_sink *who_names(struct who *w);
void who_on_call(struct who *w, struct ns_txn *t);
void who_on_reply(struct who *w, struct ns_txn *t, bool dup);
void who_on_done(struct who *w, const struct ns_txn *t, const struct ns_conn *c);

/* Rows, in no particular order: i from 0 while true (a slot not in use is
 * skipped by returning false through *live). */
uint32_t who_file_slots(const struct who *w);
bool who_file_row(const struct who *w, uint32_t i, struct who_file_row *out);
uint32_t who_user_slots(const struct who *w);
bool who_user_row(const struct who *w, uint32_t i, struct who_user_row *out);
uint32_t who_client_slots(const struct who *w);
bool who_client_row(const struct who *w, uint32_t i, struct who_client_row *out);

/* The file a transaction is about (its primary handle); false if none or
 * its row was evicted. Valid while the transaction is handed out. */
bool who_txn_file(const struct who *w, const struct ns_txn *t, const uint8_t **fh, uint32_t *len);
/* A handle's path (path_map_path). */
bool who_path(const struct who *w, const uint8_t *fh, uint32_t len, char *buf, size_t n);

struct who_counts {
    uint32_t files, users, clients, paths;
    uint64_t files_evicted, users_evicted, clients_evicted, paths_evicted;
    uint64_t pending_evicted; /* name-bearing calls whose steps were let go before their reply */
    uint64_t txns_unattributed; /* transactions whose file row was evicted before they were handed out */
};
void who_counts(const struct who *w, struct who_counts *out);

#endif
