/* Who and what (issue 25): per file (with the path rebuilt from the wire),
 * per user, per client address. Read at any time (rows are counted when a
 * transaction is handed out); the rows are copies, sorted as asked.
 *
 * Added in API version 8 (new types and functions only, nothing else grew).
 * Tables are bounded (files 65536, users 4096, client addresses 4096, path
 * map 1048576 handles, each no more than a share of the memory cap holds)
 * least recently used out; what was evicted is counted in ns_who_counts.
 * doc/who.md tells the rules. */
#ifndef NFSSCOPE_WHO_PUBLIC_H
#define NFSSCOPE_WHO_PUBLIC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfs_types.h"
#include "nfsscope/stats.h"
#include "nfsscope/txn.h"

#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

struct ns_analyzer;

/* The figures of one row. errors: replies that failed (RPC not accepted or
 * not SUCCESS, or an NFS or MOUNT status other than OK); bytes: call and
 * reply RPC messages; read_bytes: data READ / READ_PLUS returned;
 * write_bytes: bytes WRITE wrote (its reply's count); time_ns: the sum of
 * latencies; p50/p99 from a histogram of 4 buckets per power of two
 * (within 19%, clamped to the row's min and max). */
struct ns_who_figures {
    uint64_t calls, bytes, errors;
    uint64_t read_bytes, write_bytes;
    uint64_t time_ns, answered;
    uint64_t p50_us, p99_us, max_us;
};

struct ns_who_file {
    struct ns_who_figures f;
    uint32_t clients;       /* distinct client addresses (up to 8) */
    bool clients_more;      /* more than 8 */
    uint8_t fh_len;
    uint8_t fh[NS_FH_MAX];
};

enum ns_who_auth { NS_WHO_AUTH_SYS = 1, NS_WHO_AUTH_GSS = 2, NS_WHO_AUTH_OTHER = 3 };
struct ns_who_user {
    struct ns_who_figures f;
    uint8_t auth;           /* enum ns_who_auth; OTHER: AUTH_NONE and flavors not told apart */
    uint32_t uid, gid;      /* AUTH_SYS */
    uint8_t gss_handle_len; /* RPCSEC_GSS: the context handle (first 16 bytes) */
    uint8_t gss_handle[16];
};

struct ns_who_client {
    struct ns_who_figures f;
    struct ns_addr addr;
};

enum ns_who_sort {
    NS_WHO_BY_TIME = 0,     /* time spent (sum of latencies), the top-like default */
    NS_WHO_BY_BYTES,        /* bytes (files: read + write bytes) */
    NS_WHO_BY_ERRORS,
    NS_WHO_BY_CALLS,
};

/* The rows, highest first (ties: by key), at most n into out (out may be
 * NULL with n 0); returns how many rows there are. */
size_t ns_analyzer_who_files(const struct ns_analyzer *a, enum ns_who_sort by, struct ns_who_file *out, size_t n);
size_t ns_analyzer_who_users(const struct ns_analyzer *a, enum ns_who_sort by, struct ns_who_user *out, size_t n);
size_t ns_analyzer_who_clients(const struct ns_analyzer *a, enum ns_who_sort by, struct ns_who_client *out,
                               size_t n);

/* The path of a file handle as far as the capture told it, into buf
 * (NS_PATH_STRLEN is enough): "/export/dir/file", or from the deepest
 * known ancestor "<fh 3a9f0c12>/dir/file" (its nfs.fh.hash, CRC-32).
 * false (buf "") when neither the handle nor an ancestor was named. */
#define NS_PATH_STRLEN 1024
bool ns_analyzer_fh_path(const struct ns_analyzer *a, const uint8_t *fh, size_t len, char *buf, size_t n);
/* tshark's nfs.fh.hash of a handle. */
uint32_t ns_fh_hash(const uint8_t *fh, size_t len);

/* A transaction's primary handle (the file its call, or for LOOKUP, OPEN
 * and CREATE its reply, is about) while it is handed out; false: none. */
bool ns_analyzer_txn_fh(const struct ns_analyzer *a, const struct ns_txn *t, const uint8_t **fh, size_t *len);
/* Who sent a transaction's call: false when no call was seen. */
bool ns_analyzer_txn_user(const struct ns_analyzer *a, const struct ns_txn *t, struct ns_who_user *out);

struct ns_who_counts {
    uint64_t files, users, clients, paths;
    uint64_t files_evicted, users_evicted, clients_evicted, paths_evicted;
    uint64_t pending_evicted;   /* calls whose name steps were let go before their reply */
    uint64_t txns_unattributed; /* transactions whose file row was evicted before they completed */
};
void ns_analyzer_who_counts(const struct ns_analyzer *a, struct ns_who_counts *out);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
