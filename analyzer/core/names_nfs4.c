/* Names of NFSv4.x operation numbers and nfsstat4 values (RFC 8881, RFC 7862,
 * RFC 8276), spelled as the RFCs and tshark spell them. */
#include "names_int.h"
#include "nfsscope/names.h"

#include <stddef.h>

/* Forechannel operations 3..75 (RFC 8881 s.16.1, RFC 7862 s.15, RFC 8276 s.8). */
static const char *const op_names[] = {
    [3] = "ACCESS",
    [4] = "CLOSE",
    [5] = "COMMIT",
    [6] = "CREATE",
    [7] = "DELEGPURGE",
    [8] = "DELEGRETURN",
    [9] = "GETATTR",
    [10] = "GETFH",
    [11] = "LINK",
    [12] = "LOCK",
    [13] = "LOCKT",
    [14] = "LOCKU",
    [15] = "LOOKUP",
    [16] = "LOOKUPP",
    [17] = "NVERIFY",
    [18] = "OPEN",
    [19] = "OPENATTR",
    [20] = "OPEN_CONFIRM",
    [21] = "OPEN_DOWNGRADE",
    [22] = "PUTFH",
    [23] = "PUTPUBFH",
    [24] = "PUTROOTFH",
    [25] = "READ",
    [26] = "READDIR",
    [27] = "READLINK",
    [28] = "REMOVE",
    [29] = "RENAME",
    [30] = "RENEW",
    [31] = "RESTOREFH",
    [32] = "SAVEFH",
    [33] = "SECINFO",
    [34] = "SETATTR",
    [35] = "SETCLIENTID",
    [36] = "SETCLIENTID_CONFIRM",
    [37] = "VERIFY",
    [38] = "WRITE",
    [39] = "RELEASE_LOCKOWNER",
    [40] = "BACKCHANNEL_CTL",
    [41] = "BIND_CONN_TO_SESSION",
    [42] = "EXCHANGE_ID",
    [43] = "CREATE_SESSION",
    [44] = "DESTROY_SESSION",
    [45] = "FREE_STATEID",
    [46] = "GET_DIR_DELEGATION",
    [47] = "GETDEVINFO",
    [48] = "GETDEVLIST",
    [49] = "LAYOUTCOMMIT",
    [50] = "LAYOUTGET",
    [51] = "LAYOUTRETURN",
    [52] = "SECINFO_NO_NAME",
    [53] = "SEQUENCE",
    [54] = "SET_SSV",
    [55] = "TEST_STATEID",
    [56] = "WANT_DELEG",
    [57] = "DESTROY_CLIENTID",
    [58] = "RECLAIM_COMPLETE",
    [59] = "ALLOCATE",
    [60] = "COPY",
    [61] = "COPY_NOTIFY",
    [62] = "DEALLOCATE",
    [63] = "IO_ADVISE",
    [64] = "LAYOUTERROR",
    [65] = "LAYOUTSTATS",
    [66] = "OFFLOAD_CANCEL",
    [67] = "OFFLOAD_STATUS",
    [68] = "READ_PLUS",
    [69] = "SEEK",
    [70] = "WRITE_SAME",
    [71] = "CLONE",
    [72] = "GETXATTR",
    [73] = "SETXATTR",
    [74] = "LISTXATTRS",
    [75] = "REMOVEXATTR",
};

/* Callback operations 3..15 (RFC 8881 s.20, RFC 7862 s.16). */
static const char *const cb_op_names[] = {
    [3] = "CB_GETATTR",
    [4] = "CB_RECALL",
    [5] = "CB_LAYOUTRECALL",
    [6] = "CB_NOTIFY",
    [7] = "CB_PUSH_DELEG",
    [8] = "CB_RECALL_ANY",
    [9] = "CB_RECALLABLE_OBJ_AVAIL",
    [10] = "CB_RECALL_SLOT",
    [11] = "CB_SEQUENCE",
    [12] = "CB_WANTS_CANCELLED",
    [13] = "CB_NOTIFY_LOCK",
    [14] = "CB_NOTIFY_DEVICEID",
    [15] = "CB_OFFLOAD",
};

#define OP_ILLEGAL 10044u
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

bool ns_nfs4_op_known(uint32_t op)
{
    return op == OP_ILLEGAL || (op < NELEM(op_names) && op_names[op] != NULL);
}

bool ns_nfs4_cb_op_known(uint32_t op)
{
    return op == OP_ILLEGAL || (op < NELEM(cb_op_names) && cb_op_names[op] != NULL);
}

const char *ns_nfs4_op_name(uint32_t op)
{
    if (op == OP_ILLEGAL) return "ILLEGAL";
    if (op < NELEM(op_names) && op_names[op]) return op_names[op];
    return "UNKNOWN";
}

const char *ns_nfs4_cb_op_name(uint32_t op)
{
    if (op == OP_ILLEGAL) return "CB_ILLEGAL";
    if (op < NELEM(cb_op_names) && cb_op_names[op]) return cb_op_names[op];
    return "UNKNOWN";
}

/* nfsstat4 values below 10000 (they mirror errno values). */
static const char *const status_low[] = {
    [0] = "NFS4_OK",
    [1] = "NFS4ERR_PERM",
    [2] = "NFS4ERR_NOENT",
    [5] = "NFS4ERR_IO",
    [6] = "NFS4ERR_NXIO",
    [13] = "NFS4ERR_ACCESS",
    [17] = "NFS4ERR_EXIST",
    [18] = "NFS4ERR_XDEV",
    [20] = "NFS4ERR_NOTDIR",
    [21] = "NFS4ERR_ISDIR",
    [22] = "NFS4ERR_INVAL",
    [27] = "NFS4ERR_FBIG",
    [28] = "NFS4ERR_NOSPC",
    [30] = "NFS4ERR_ROFS",
    [31] = "NFS4ERR_MLINK",
    [63] = "NFS4ERR_NAMETOOLONG",
    [66] = "NFS4ERR_NOTEMPTY",
    [69] = "NFS4ERR_DQUOT",
    [70] = "NFS4ERR_STALE",
};

/* nfsstat4 values from 10001, indexed by value - 10000. */
static const char *const status_high[] = {
    [1] = "NFS4ERR_BADHANDLE",
    [3] = "NFS4ERR_BAD_COOKIE",
    [4] = "NFS4ERR_NOTSUPP",
    [5] = "NFS4ERR_TOOSMALL",
    [6] = "NFS4ERR_SERVERFAULT",
    [7] = "NFS4ERR_BADTYPE",
    [8] = "NFS4ERR_DELAY",
    [9] = "NFS4ERR_SAME",
    [10] = "NFS4ERR_DENIED",
    [11] = "NFS4ERR_EXPIRED",
    [12] = "NFS4ERR_LOCKED",
    [13] = "NFS4ERR_GRACE",
    [14] = "NFS4ERR_FHEXPIRED",
    [15] = "NFS4ERR_SHARE_DENIED",
    [16] = "NFS4ERR_WRONGSEC",
    [17] = "NFS4ERR_CLID_INUSE",
    [18] = "NFS4ERR_RESOURCE",
    [19] = "NFS4ERR_MOVED",
    [20] = "NFS4ERR_NOFILEHANDLE",
    [21] = "NFS4ERR_MINOR_VERS_MISMATCH",
    [22] = "NFS4ERR_STALE_CLIENTID",
    [23] = "NFS4ERR_STALE_STATEID",
    [24] = "NFS4ERR_OLD_STATEID",
    [25] = "NFS4ERR_BAD_STATEID",
    [26] = "NFS4ERR_BAD_SEQID",
    [27] = "NFS4ERR_NOT_SAME",
    [28] = "NFS4ERR_LOCK_RANGE",
    [29] = "NFS4ERR_SYMLINK",
    [30] = "NFS4ERR_RESTOREFH",
    [31] = "NFS4ERR_LEASE_MOVED",
    [32] = "NFS4ERR_ATTRNOTSUPP",
    [33] = "NFS4ERR_NO_GRACE",
    [34] = "NFS4ERR_RECLAIM_BAD",
    [35] = "NFS4ERR_RECLAIM_CONFLICT",
    [36] = "NFS4ERR_BADXDR",
    [37] = "NFS4ERR_LOCKS_HELD",
    [38] = "NFS4ERR_OPENMODE",
    [39] = "NFS4ERR_BADOWNER",
    [40] = "NFS4ERR_BADCHAR",
    [41] = "NFS4ERR_BADNAME",
    [42] = "NFS4ERR_BAD_RANGE",
    [43] = "NFS4ERR_LOCK_NOTSUPP",
    [44] = "NFS4ERR_OP_ILLEGAL",
    [45] = "NFS4ERR_DEADLOCK",
    [46] = "NFS4ERR_FILE_OPEN",
    [47] = "NFS4ERR_ADMIN_REVOKED",
    [48] = "NFS4ERR_CB_PATH_DOWN",
    [49] = "NFS4ERR_BADIOMODE",
    [50] = "NFS4ERR_BADLAYOUT",
    [51] = "NFS4ERR_BAD_SESSION_DIGEST",
    [52] = "NFS4ERR_BADSESSION",
    [53] = "NFS4ERR_BADSLOT",
    [54] = "NFS4ERR_COMPLETE_ALREADY",
    [55] = "NFS4ERR_CONN_NOT_BOUND_TO_SESSION",
    [56] = "NFS4ERR_DELEG_ALREADY_WANTED",
    [57] = "NFS4ERR_BACK_CHAN_BUSY",
    [58] = "NFS4ERR_LAYOUTTRYLATER",
    [59] = "NFS4ERR_LAYOUTUNAVAILABLE",
    [60] = "NFS4ERR_NOMATCHING_LAYOUT",
    [61] = "NFS4ERR_RECALLCONFLICT",
    [62] = "NFS4ERR_UNKNOWN_LAYOUTTYPE",
    [63] = "NFS4ERR_SEQ_MISORDERED",
    [64] = "NFS4ERR_SEQUENCE_POS",
    [65] = "NFS4ERR_REQ_TOO_BIG",
    [66] = "NFS4ERR_REP_TOO_BIG",
    [67] = "NFS4ERR_REP_TOO_BIG_TO_CACHE",
    [68] = "NFS4ERR_RETRY_UNCACHED_REP",
    [69] = "NFS4ERR_UNSAFE_COMPOUND",
    [70] = "NFS4ERR_TOO_MANY_OPS",
    [71] = "NFS4ERR_OP_NOT_IN_SESSION",
    [72] = "NFS4ERR_HASH_ALG_UNSUPP",
    /* 10073 is unused in RFC 8881 */
    [74] = "NFS4ERR_CLIENTID_BUSY",
    [75] = "NFS4ERR_PNFS_IO_HOLE",
    [76] = "NFS4ERR_SEQ_FALSE_RETRY",
    [77] = "NFS4ERR_BAD_HIGH_SLOT",
    [78] = "NFS4ERR_DEADSESSION",
    [79] = "NFS4ERR_ENCR_ALG_UNSUPP",
    [80] = "NFS4ERR_PNFS_NO_LAYOUT",
    [81] = "NFS4ERR_NOT_ONLY_OP",
    [82] = "NFS4ERR_WRONG_CRED",
    [83] = "NFS4ERR_WRONG_TYPE",
    [84] = "NFS4ERR_DIRDELEG_UNAVAIL",
    [85] = "NFS4ERR_REJECT_DELEG",
    [86] = "NFS4ERR_RETURNCONFLICT",
    [87] = "NFS4ERR_DELEG_REVOKED",
    /* RFC 7862 */
    [88] = "NFS4ERR_PARTNER_NOTSUPP",
    [89] = "NFS4ERR_PARTNER_NO_AUTH",
    [90] = "NFS4ERR_UNION_NOTSUPP",
    [91] = "NFS4ERR_OFFLOAD_DENIED",
    [92] = "NFS4ERR_WRONG_LFS",
    [93] = "NFS4ERR_BADLABEL",
    [94] = "NFS4ERR_OFFLOAD_NO_REQS",
    /* RFC 8276 */
    [95] = "NFS4ERR_NOXATTR",
    [96] = "NFS4ERR_XATTR2BIG",
};

const char *ns_nfs4_status_name(uint32_t st)
{
    const char *s = NULL;
    if (st < NELEM(status_low))
        s = status_low[st];
    else if (st > 10000 && st - 10000 < NELEM(status_high))
        s = status_high[st - 10000];
    return s ? s : names_unknown_number(st);
}
