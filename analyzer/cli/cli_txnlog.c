#include "cli_txnlog.h"

#include "nfsscope/report.h"

void txnlog_write(void *ctx, const struct ns_txn *t)
{
    const struct txnlog *l = ctx;
    if (l->split) ns_report_txn_line_two_point(l->out, l->a, t, l->split);
    else ns_report_txn_line(l->out, l->a, t);
}
