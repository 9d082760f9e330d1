/* Public view of a transaction's operation key (nfsscope/txn.h): the same
 * key the statistics count it under, so front ends that keep their own
 * figures (the narrowed report, the HTML charts, the metrics) name and count
 * operations as the report does. */
#include "nfs_dispatch.h"
#include "nfsscope/txn.h"

uint32_t ns_txn_op_key(const struct ns_txn *t)
{
    return t->call_frame ? nfs_txn_opkey(t) : UINT32_MAX;
}
