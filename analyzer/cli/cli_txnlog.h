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

#endif
