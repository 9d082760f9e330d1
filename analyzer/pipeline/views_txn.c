/* Public view of a transaction's operation key (nfsscope/txn.h): the same
 * key the statistics count it under, so front ends that keep their own
 * series (the HTML charts, the metrics) name operations as the report does. */
#include "nfs_dispatch.h"
#include "nfsscope/txn.h"

uint32_t ns_txn_op_key(const struct ns_txn *t) { return nfs_txn_opkey(t); }
