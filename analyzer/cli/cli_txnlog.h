/* The --txn-log writer: the report library's JSON line (ns_report_txn_line,
 * doc/txn-log.md) for each transaction, where -txn-log says. */
#ifndef NFSSCOPE_CLI_TXNLOG_H
#define NFSSCOPE_CLI_TXNLOG_H
#include <stdio.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/two_point.h"

struct txnlog {
    FILE *out;
    const ns_analyzer *a;
    const struct ns_tp_split *split; /* --peer: the split of the transaction written (server_us, network_us) */
};

/* ns_txn_fn for ns_analyzer_on_txn; ctx is a struct txnlog. */
void txnlog_write(void *ctx, const struct ns_txn *t);

#endif
