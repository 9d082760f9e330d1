/* NFSv4 operation and status names: RFC spellings, as tshark prints them
 * (tshark 4.0 differs from RFC 8881 only for 10030, 10057 and 10073, where we
 * follow the RFC). */
#include "check.h"
#include "nfsscope/names.h"

int main(void)
{
    CHECK_EQ_S(ns_nfs4_op_name(3), "ACCESS");
    CHECK_EQ_S(ns_nfs4_op_name(9), "GETATTR");
    CHECK_EQ_S(ns_nfs4_op_name(20), "OPEN_CONFIRM");
    CHECK_EQ_S(ns_nfs4_op_name(22), "PUTFH");
    CHECK_EQ_S(ns_nfs4_op_name(35), "SETCLIENTID");
    CHECK_EQ_S(ns_nfs4_op_name(36), "SETCLIENTID_CONFIRM");
    CHECK_EQ_S(ns_nfs4_op_name(39), "RELEASE_LOCKOWNER");
    CHECK_EQ_S(ns_nfs4_op_name(41), "BIND_CONN_TO_SESSION");
    CHECK_EQ_S(ns_nfs4_op_name(42), "EXCHANGE_ID");
    CHECK_EQ_S(ns_nfs4_op_name(43), "CREATE_SESSION");
    CHECK_EQ_S(ns_nfs4_op_name(47), "GETDEVINFO");
    CHECK_EQ_S(ns_nfs4_op_name(48), "GETDEVLIST");
    CHECK_EQ_S(ns_nfs4_op_name(53), "SEQUENCE");
    CHECK_EQ_S(ns_nfs4_op_name(56), "WANT_DELEG");
    CHECK_EQ_S(ns_nfs4_op_name(58), "RECLAIM_COMPLETE");
    CHECK_EQ_S(ns_nfs4_op_name(68), "READ_PLUS");
    CHECK_EQ_S(ns_nfs4_op_name(71), "CLONE");
    CHECK_EQ_S(ns_nfs4_op_name(75), "REMOVEXATTR");
    CHECK_EQ_S(ns_nfs4_op_name(10044), "ILLEGAL");
    CHECK_EQ_S(ns_nfs4_op_name(0), "UNKNOWN");
    CHECK_EQ_S(ns_nfs4_op_name(2), "UNKNOWN");
    CHECK_EQ_S(ns_nfs4_op_name(76), "UNKNOWN");
    CHECK_EQ_S(ns_nfs4_op_name(0xffffffff), "UNKNOWN");
    for (uint32_t op = 3; op <= 75; op++) CHECK(ns_nfs4_op_known(op));
    CHECK(ns_nfs4_op_known(10044));
    CHECK(!ns_nfs4_op_known(0) && !ns_nfs4_op_known(1) && !ns_nfs4_op_known(2));
    CHECK(!ns_nfs4_op_known(76) && !ns_nfs4_op_known(10043) && !ns_nfs4_op_known(10045));

    CHECK_EQ_S(ns_nfs4_cb_op_name(3), "CB_GETATTR");
    CHECK_EQ_S(ns_nfs4_cb_op_name(4), "CB_RECALL");
    CHECK_EQ_S(ns_nfs4_cb_op_name(9), "CB_RECALLABLE_OBJ_AVAIL");
    CHECK_EQ_S(ns_nfs4_cb_op_name(11), "CB_SEQUENCE");
    CHECK_EQ_S(ns_nfs4_cb_op_name(14), "CB_NOTIFY_DEVICEID");
    CHECK_EQ_S(ns_nfs4_cb_op_name(15), "CB_OFFLOAD");
    CHECK_EQ_S(ns_nfs4_cb_op_name(10044), "CB_ILLEGAL");
    CHECK_EQ_S(ns_nfs4_cb_op_name(16), "UNKNOWN");
    CHECK_EQ_S(ns_nfs4_cb_op_name(2), "UNKNOWN");
    for (uint32_t op = 3; op <= 15; op++) CHECK(ns_nfs4_cb_op_known(op));
    CHECK(ns_nfs4_cb_op_known(10044));
    CHECK(!ns_nfs4_cb_op_known(16) && !ns_nfs4_cb_op_known(53));

    CHECK_EQ_S(ns_nfs4_status_name(0), "NFS4_OK");
    CHECK_EQ_S(ns_nfs4_status_name(1), "NFS4ERR_PERM");
    CHECK_EQ_S(ns_nfs4_status_name(70), "NFS4ERR_STALE");
    CHECK_EQ_S(ns_nfs4_status_name(10008), "NFS4ERR_DELAY");
    CHECK_EQ_S(ns_nfs4_status_name(10030), "NFS4ERR_RESTOREFH");
    CHECK_EQ_S(ns_nfs4_status_name(10049), "NFS4ERR_BADIOMODE");
    CHECK_EQ_S(ns_nfs4_status_name(10052), "NFS4ERR_BADSESSION");
    CHECK_EQ_S(ns_nfs4_status_name(10055), "NFS4ERR_CONN_NOT_BOUND_TO_SESSION");
    CHECK_EQ_S(ns_nfs4_status_name(10057), "NFS4ERR_BACK_CHAN_BUSY");
    CHECK_EQ_S(ns_nfs4_status_name(10063), "NFS4ERR_SEQ_MISORDERED");
    CHECK_EQ_S(ns_nfs4_status_name(10077), "NFS4ERR_BAD_HIGH_SLOT");
    CHECK_EQ_S(ns_nfs4_status_name(10084), "NFS4ERR_DIRDELEG_UNAVAIL");
    CHECK_EQ_S(ns_nfs4_status_name(10087), "NFS4ERR_DELEG_REVOKED");
    CHECK_EQ_S(ns_nfs4_status_name(10094), "NFS4ERR_OFFLOAD_NO_REQS");
    CHECK_EQ_S(ns_nfs4_status_name(10095), "NFS4ERR_NOXATTR");
    CHECK_EQ_S(ns_nfs4_status_name(10096), "NFS4ERR_XATTR2BIG");
    CHECK_EQ_S(ns_nfs4_status_name(3), "UNKNOWN(3)");
    CHECK_EQ_S(ns_nfs4_status_name(10000), "UNKNOWN(10000)");
    CHECK_EQ_S(ns_nfs4_status_name(10002), "UNKNOWN(10002)");
    CHECK_EQ_S(ns_nfs4_status_name(10073), "UNKNOWN(10073)");
    /* an unknown status keeps its number (a fuzzed server's 0x41414141) */
    CHECK_EQ_S(ns_nfs4_status_name(0x41414141), "UNKNOWN(1094795585)");
    CHECK_EQ_S(ns_nfs3_status_name(0x41414141), "UNKNOWN(1094795585)");
    CHECK_EQ_S(ns_mount3_status_name(7), "UNKNOWN(7)");
    CHECK_EQ_S(ns_nfs4_status_name(10097), "UNKNOWN(10097)");
    CHECK_EQ_S(ns_nfs4_status_name(0xffffffff), "UNKNOWN(4294967295)");
    /* every value 10001..10096 but 10002 and 10073 is named */
    unsigned named = 0;
    for (uint32_t s = 10001; s <= 10096; s++) named += strncmp(ns_nfs4_status_name(s), "UNKNOWN(", 8) != 0;
    CHECK_EQ_U(named, 94);
    return check_done("test_nfs4_names");
}
