/* Public accessors of a transaction that need the decoders' rules. */
#include "analyzer_int.h"
#include "nfs_dispatch.h"

uint32_t ns_txn_opkey(const struct ns_txn *t)
{
    return t->call_frame ? nfs_txn_opkey(t) : UINT32_MAX;
}
