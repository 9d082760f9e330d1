/* The --txn-log writer: one JSON line per transaction (doc/txn-log.md). */
#ifndef NFSSCOPE_CLI_TXNLOG_H
#define NFSSCOPE_CLI_TXNLOG_H
#include <stdio.h>

#include "nfsscope/nfsscope.h"

struct txnlog {
    FILE *out;
    const ns_analyzer *a;
};

/* ns_txn_fn for ns_analyzer_on_txn; ctx is a struct txnlog. */
void txnlog_write(void *ctx, const struct ns_txn *t);
/* Name of a transaction's final status, or NULL when it has none. */
const char *txn_status_name(const struct ns_txn *t);
const char *rpc_status_name(uint32_t s);

#endif
