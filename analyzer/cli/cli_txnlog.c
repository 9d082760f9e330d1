#include "cli_txnlog.h"

#include "nfsscope/report.h"

void txnlog_write(void *ctx, const struct ns_txn *t)
{
    const struct txnlog *l = ctx;
    ns_report_txn_line(l->out, l->a, t);
}
