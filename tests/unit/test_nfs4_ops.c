/* File, state and pNFS operations built from RFC 8881 s.18: OPEN (every
 * claim and create mode; every delegation in the result), LOCK / LOCKT with
 * LOCK4denied, GETATTR, READDIR, SETATTR, SECINFO, LAYOUTGET, GETDEVICEINFO,
 * the RFC 8276 xattr operations; plus CB_COMPOUND (CB_SEQUENCE, CB_RECALL,
 * CB_LAYOUTRECALL, CB_OFFLOAD, CB_GETATTR). Each is followed by another op so
 * that a mis-sized decode shows up as a failed walk. */
#include "check.h"
#include "nfs4_build.h"
#include "nfs4_decode.h"

static int dcall(struct xdr *x, void *o) { return nfs4_decode_compound_call(x, o, NULL); }
static int dreply(struct xdr *x, void *o) { return nfs4_decode_compound_reply(x, o, NULL); }
static int dcbcall(struct xdr *x, void *o) { return nfs4_decode_cb_compound_call(x, o, NULL); }
static int dcbreply(struct xdr *x, void *o) { return nfs4_decode_cb_compound_reply(x, o, NULL); }

static struct xb b;
static struct nfs4_call c;
static struct nfs4_reply p;

/* Decode b as a call; it must walk to its end with nops operations. */
static void walk_call_ok(uint32_t nops, int line)
{
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    if (r.rc != 0 || r.remaining != 0 || c.nops != nops)
        fprintf(stderr, "line %d: rc %d err %u remaining %u nops %u\n", line, r.rc, r.err,
                r.remaining, c.nops);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK_EQ_U(c.nops, nops);
    CHECK(c.walk_complete);
}

static void walk_reply_ok(uint32_t nres, int line)
{
    struct xb_run r = xb_decode(&b, b.len, dreply, &p);
    if (r.rc != 0 || r.remaining != 0 || p.nres != nres)
        fprintf(stderr, "line %d: rc %d err %u remaining %u nres %u\n", line, r.rc, r.err,
                r.remaining, p.nres);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK_EQ_U(p.nres, nres);
    CHECK(p.walk_complete);
}

/* PUTFH, OPEN(create mode, claim), GETFH */
static void open_call(int createmode, uint32_t claim)
{
    xb_init(&b);
    xb_call_hdr(&b, "open", 1, 3);
    xb_op_args(&b, 22);
    xb_u32(&b, 18);
    xb_u32(&b, 0);          /* seqid */
    xb_u32(&b, 0x10002);    /* share_access: WRITE | WANT_SIGNAL */
    xb_u32(&b, 0);          /* share_deny */
    xb_owner(&b, 0x77, "open id:\x01\x02");
    if (createmode < 0) {
        xb_u32(&b, 0); /* OPEN4_NOCREATE */
    } else {
        xb_u32(&b, 1);
        xb_u32(&b, (uint32_t)createmode);
        if (createmode == 0 || createmode == 1) xb_fattr(&b);
        if (createmode == 2) xb_raw(&b, "EXCLVERF", 8);
        if (createmode == 3) {
            xb_raw(&b, "EXCLVERF", 8);
            xb_fattr(&b);
        }
    }
    xb_u32(&b, claim);
    switch (claim) {
    case 0: xb_str(&b, "newfile.txt"); break;
    case 1: xb_u32(&b, 2); break;
    case 2: xb_stateid(&b, 4); xb_str(&b, "f"); break;
    case 3: xb_str(&b, "prev"); break;
    case 5: xb_stateid(&b, 5); break;
    default: break;
    }
    xb_op_args(&b, 10);
}

static void test_open_call(void)
{
    for (int mode = -1; mode <= 3; mode++) {
        open_call(mode, 0);
        walk_call_ok(3, __LINE__);
        CHECK_EQ_U(c.op[1], 18);
    }
    for (uint32_t claim = 0; claim <= 6; claim++) {
        open_call(-1, claim);
        walk_call_ok(3, __LINE__);
    }
    open_call(-1, 7); /* no such claim */
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, (unsigned long long)-2);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    CHECK_EQ_U(c.stopped_at_op, 18);
    open_call(4, 0); /* no such createmode */
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
}

/* PUTFH, OPEN (delegation of type dt), GETFH */
static void open_reply(uint32_t dt, uint32_t sub)
{
    xb_init(&b);
    xb_reply_hdr(&b, 0, "open", 3);
    xb_op_res(&b, 22);
    xb_u32(&b, 18);
    xb_u32(&b, 0);
    xb_stateid(&b, 1);
    xb_change_info(&b);
    xb_u32(&b, 0x24); /* LOCKTYPE_POSIX | MAY_NOTIFY_LOCK */
    const uint32_t set[2] = {0, 0x2};
    xb_bitmap(&b, 2, set);
    xb_u32(&b, dt);
    switch (dt) {
    case 1: /* READ */
    case 4:
        xb_stateid(&b, 9);
        xb_bool(&b, false);
        xb_u32(&b, 0);
        xb_u32(&b, 0);
        xb_u32(&b, 0x1);
        xb_str(&b, "EVERYONE@");
        break;
    case 2: /* WRITE, space limit by size (sub 1) or blocks (sub 2) */
    case 5:
        xb_stateid(&b, 9);
        xb_bool(&b, true);
        xb_u32(&b, sub);
        if (sub == 1) xb_u64(&b, 1 << 30);
        else {
            xb_u32(&b, 100);
            xb_u32(&b, 4096);
        }
        xb_u32(&b, 0);
        xb_u32(&b, 0);
        xb_u32(&b, 0x6);
        xb_str(&b, "OWNER@");
        break;
    case 3: /* NONE_EXT, why = sub */
        xb_u32(&b, sub);
        if (sub == 1 || sub == 2) xb_bool(&b, true);
        break;
    default:
        break;
    }
    xb_op_res(&b, 10);
}

static void test_open_reply(void)
{
    open_reply(0, 0);
    walk_reply_ok(3, __LINE__);
    open_reply(1, 0);
    walk_reply_ok(3, __LINE__);
    open_reply(2, 1);
    walk_reply_ok(3, __LINE__);
    open_reply(2, 2);
    walk_reply_ok(3, __LINE__);
    for (uint32_t why = 0; why <= 8; why++) {
        open_reply(3, why);
        walk_reply_ok(3, __LINE__);
    }
    open_reply(4, 0); /* RFC 9754 delegated-timestamp delegations */
    walk_reply_ok(3, __LINE__);
    open_reply(5, 1);
    walk_reply_ok(3, __LINE__);
    open_reply(2, 3); /* bad limit_by4 */
    struct xb_run r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    open_reply(6, 0); /* bad delegation type */
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    CHECK_EQ_U(p.stopped_at_op, 18);
    CHECK_EQ_U(p.nres, 2);
}

static void test_lock(void)
{
    /* new lock owner, then existing lock owner, then LOCKT, LOCKU */
    xb_init(&b);
    xb_call_hdr(&b, "lock", 1, 5);
    xb_op_args(&b, 22);
    xb_op_args(&b, 12);
    xb_u32(&b, 12);
    xb_u32(&b, 4); /* WRITEW_LT */
    xb_bool(&b, true);
    xb_u64(&b, 100);
    xb_u64(&b, ~0ULL);
    xb_bool(&b, false);
    xb_stateid(&b, 2);
    xb_u32(&b, 7);
    xb_op_args(&b, 13);
    xb_op_args(&b, 14);
    walk_call_ok(5, __LINE__);

    /* LOCK denied: LOCK4denied follows the status */
    xb_init(&b);
    xb_reply_hdr(&b, 10010, "lock", 3);
    xb_op_res(&b, 53);
    xb_op_res(&b, 22);
    xb_u32(&b, 12);
    xb_u32(&b, 10010);
    xb_u64(&b, 0);
    xb_u64(&b, 4096);
    xb_u32(&b, 2);
    xb_owner(&b, 0x99, "other owner");
    walk_reply_ok(3, __LINE__);
    CHECK_EQ_U(p.status, 10010);
    CHECK_EQ_U(p.resop[2], 12);
    CHECK_EQ_U(p.res_status[2], 10010);

    /* LOCKT denied, and LOCK failing otherwise (no body) */
    xb_init(&b);
    xb_reply_hdr(&b, 10010, "", 2);
    xb_op_res(&b, 22);
    xb_u32(&b, 13);
    xb_u32(&b, 10010);
    xb_u64(&b, 0);
    xb_u64(&b, 1);
    xb_u32(&b, 1);
    xb_owner(&b, 1, "");
    walk_reply_ok(2, __LINE__);
    xb_init(&b);
    xb_reply_hdr(&b, 10011, "", 2);
    xb_op_res(&b, 22);
    xb_u32(&b, 12);
    xb_u32(&b, 10011);
    walk_reply_ok(2, __LINE__);
    /* LOCK4denied's owner over NFS4_OPAQUE_LIMIT */
    xb_init(&b);
    xb_reply_hdr(&b, 10010, "", 1);
    xb_u32(&b, 12);
    xb_u32(&b, 10010);
    xb_u64(&b, 0);
    xb_u64(&b, 1);
    xb_u32(&b, 1);
    xb_u64(&b, 1);
    xb_filled(&b, 1025, 0);
    struct xb_run r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
}

static void test_attrs_and_dirs(void)
{
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 5);
    xb_op_args(&b, 53);
    xb_op_args(&b, 22);
    xb_op_args(&b, 26);
    xb_op_args(&b, 34);
    xb_op_args(&b, 9);
    walk_call_ok(5, __LINE__);

    /* READDIR with three entries, each with attributes */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 4);
    xb_op_res(&b, 53);
    xb_op_res(&b, 22);
    xb_u32(&b, 26);
    xb_u32(&b, 0);
    xb_raw(&b, "COOKVERF", 8);
    const char *names[] = {"a", "bb", "a much longer file name.txt"};
    for (int i = 0; i < 3; i++) {
        xb_bool(&b, true);
        xb_u64(&b, (uint64_t)i + 3);
        xb_str(&b, names[i]);
        xb_fattr(&b);
    }
    xb_bool(&b, false);
    xb_bool(&b, true);
    xb_op_res(&b, 9);
    walk_reply_ok(4, __LINE__);

    /* SETATTR failing still carries attrsset (a struct, not a union) */
    xb_init(&b);
    xb_reply_hdr(&b, 10032, "", 3);
    xb_op_res(&b, 22);
    xb_u32(&b, 34);
    xb_u32(&b, 10032);
    xb_bitmap(&b, 0, NULL);
    xb_u32(&b, 9); /* (servers stop at an error; this only checks the size) */
    xb_u32(&b, 10008);
    walk_reply_ok(3, __LINE__);

    /* GETATTR with a fattr4 whose attribute list is in a hole */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 2);
    xb_op_res(&b, 22);
    xb_u32(&b, 9);
    xb_u32(&b, 0);
    xb_bitmap(&b, 0, NULL);
    uint32_t at = b.len + 4;
    xb_filled(&b, 200, 7);
    struct xb_run r = xb_decode_hole(&b, at, 200, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK(p.walk_complete);

    /* SECINFO, SECINFO_NO_NAME, xattr ops, LINK, RENAME, CREATE (device) */
    xb_init(&b);
    xb_call_hdr(&b, "", 2, 10);
    xb_op_args(&b, 22);
    xb_op_args(&b, 72);
    xb_op_args(&b, 73);
    xb_op_args(&b, 74);
    xb_op_args(&b, 75);
    xb_op_args(&b, 29);
    xb_u32(&b, 6);
    xb_u32(&b, 3); /* NF4BLK */
    xb_u32(&b, 8);
    xb_u32(&b, 1);
    xb_str(&b, "sda1");
    xb_fattr(&b);
    xb_op_args(&b, 11);
    xb_op_args(&b, 33);
    xb_op_args(&b, 52);
    walk_call_ok(10, __LINE__);
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 9);
    uint32_t rops[] = {22, 72, 73, 74, 75, 29, 6, 11, 52};
    for (int i = 0; i < 9; i++) xb_op_res(&b, rops[i]);
    walk_reply_ok(9, __LINE__);
}

static void test_pnfs(void)
{
    uint32_t ops[] = {53, 22, 50, 47, 48, 49, 51, 64, 65};
    uint32_t n = sizeof ops / sizeof ops[0];
    xb_init(&b);
    xb_call_hdr(&b, "", 1, n);
    for (uint32_t i = 0; i < n; i++) xb_op_args(&b, ops[i]);
    walk_call_ok(n, __LINE__);
    CHECK_EQ_U(c.op[2], 50);

    /* LAYOUTGET with two layouts */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 3);
    xb_op_res(&b, 53);
    xb_op_res(&b, 22);
    xb_u32(&b, 50);
    xb_u32(&b, 0);
    xb_bool(&b, false);
    xb_stateid(&b, 1);
    xb_u32(&b, 2);
    for (int i = 0; i < 2; i++) {
        xb_u64(&b, (uint64_t)i << 20);
        xb_u64(&b, 1 << 20);
        xb_u32(&b, 1); /* LAYOUTIOMODE4_READ */
        xb_u32(&b, 1); /* LAYOUT4_NFSV4_1_FILES */
        xb_filled(&b, 57, 0x3c);
    }
    walk_reply_ok(3, __LINE__);
    /* NFS4ERR_LAYOUTTRYLATER carries a bool; other errors nothing */
    xb_init(&b);
    xb_reply_hdr(&b, 10058, "", 2);
    xb_op_res(&b, 22);
    xb_u32(&b, 50);
    xb_u32(&b, 10058);
    xb_bool(&b, true);
    walk_reply_ok(2, __LINE__);
    xb_init(&b);
    xb_reply_hdr(&b, 10059, "", 2);
    xb_op_res(&b, 22);
    xb_u32(&b, 50);
    xb_u32(&b, 10059);
    walk_reply_ok(2, __LINE__);
    /* GETDEVICEINFO NFS4ERR_TOOSMALL carries mincount */
    xb_init(&b);
    xb_reply_hdr(&b, 10005, "", 2);
    xb_op_res(&b, 53);
    xb_u32(&b, 47);
    xb_u32(&b, 10005);
    xb_u32(&b, 8192);
    walk_reply_ok(2, __LINE__);
    /* all pNFS results */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", n);
    for (uint32_t i = 0; i < n; i++) xb_op_res(&b, ops[i]);
    walk_reply_ok(n, __LINE__);
    /* LAYOUTRETURN of a whole fsid (void body), LAYOUTCOMMIT without options */
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 3);
    xb_u32(&b, 51);
    xb_bool(&b, false);
    xb_u32(&b, 1);
    xb_u32(&b, 3);
    xb_u32(&b, 2); /* LAYOUTRETURN4_FSID */
    xb_u32(&b, 49);
    xb_u64(&b, 0);
    xb_u64(&b, 10);
    xb_bool(&b, false);
    xb_stateid(&b, 1);
    xb_bool(&b, false);
    xb_bool(&b, false);
    xb_u32(&b, 1);
    xb_u32(&b, 0);
    xb_op_args(&b, 10);
    walk_call_ok(3, __LINE__);
}

static void test_cb(void)
{
    /* CB_SEQUENCE with referring calls, CB_RECALL */
    xb_init(&b);
    xb_cb_call_hdr(&b, "cb", 1, 0x1234, 2);
    xb_u32(&b, 11);
    xb_seq_args(&b, 0x50, 44, 2, 7, true);
    xb_u32(&b, 2);
    for (int i = 0; i < 2; i++) {
        xb_sessionid(&b, 0x60);
        xb_u32(&b, 1);
        xb_u32(&b, 9);
        xb_u32(&b, 3);
    }
    xb_u32(&b, 4);
    xb_stateid(&b, 3);
    xb_bool(&b, true);
    xb_fh(&b, 36, 9);
    struct xb_run r = xb_decode(&b, b.len, dcbcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(c.walk_complete);
    CHECK_EQ_U(c.cb_ident, 0x1234);
    CHECK_EQ_U(c.minor, 1);
    CHECK_EQ_U(c.tag_len, 2);
    CHECK(c.has_seq);
    CHECK_EQ_U(c.seq.sequenceid, 44);
    CHECK_EQ_U(c.seq.slotid, 2);
    CHECK_EQ_U(c.seq.highest_slotid, 7);
    CHECK(c.seq.cachethis);
    CHECK_EQ_U(c.seq.sessionid[0], 0x50);
    CHECK_EQ_U(c.seq.sessionid[15], 0x5f);
    CHECK_EQ_U(c.nops, 2);
    CHECK_EQ_U(c.op[0], 11);
    CHECK_EQ_U(c.op[1], 4);

    xb_init(&b);
    xb_reply_hdr(&b, 0, "cb", 2);
    xb_u32(&b, 11);
    xb_u32(&b, 0);
    xb_sessionid(&b, 0x50);
    xb_u32(&b, 44);
    xb_u32(&b, 2);
    xb_u32(&b, 7);
    xb_u32(&b, 6);
    xb_u32(&b, 4);
    xb_u32(&b, 0);
    r = xb_decode(&b, b.len, dcbreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.has_seq);
    CHECK_EQ_U(p.seq.sequenceid, 44);
    CHECK_EQ_U(p.seq.slotid, 2);
    CHECK_EQ_U(p.seq.highest_slotid, 7);
    CHECK_EQ_U(p.seq.target_highest_slotid, 6);
    CHECK_EQ_U(p.resop[1], 4);

    /* CB_SEQUENCE error, CB_LAYOUTRECALL by fsid and all, CB_OFFLOAD failed */
    xb_init(&b);
    xb_reply_hdr(&b, 10052, "", 1);
    xb_u32(&b, 11);
    xb_u32(&b, 10052);
    r = xb_decode(&b, b.len, dcbreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK(!p.has_seq);
    xb_init(&b);
    xb_cb_call_hdr(&b, "", 2, 1, 4);
    xb_cb_op_args(&b, 11);
    xb_u32(&b, 5);
    xb_u32(&b, 1);
    xb_u32(&b, 3);
    xb_bool(&b, false);
    xb_u32(&b, 2);
    xb_u64(&b, 1);
    xb_u64(&b, 2);
    xb_u32(&b, 5);
    xb_u32(&b, 1);
    xb_u32(&b, 3);
    xb_bool(&b, false);
    xb_u32(&b, 3);
    xb_u32(&b, 15);
    xb_fh(&b, 10, 1);
    xb_stateid(&b, 1);
    xb_u32(&b, 10091);
    xb_u64(&b, 4096);
    r = xb_decode(&b, b.len, dcbcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK_EQ_U(c.nops, 4);
    /* bad layoutrecall type */
    xb_init(&b);
    xb_cb_call_hdr(&b, "", 1, 1, 1);
    xb_u32(&b, 5);
    xb_u32(&b, 1);
    xb_u32(&b, 3);
    xb_bool(&b, false);
    xb_u32(&b, 4);
    r = xb_decode(&b, b.len, dcbcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    /* CB_GETATTR result with attributes */
    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 2);
    xb_cb_op_res(&b, 11);
    xb_cb_op_res(&b, 3);
    r = xb_decode(&b, b.len, dcbreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.walk_complete);
}

int main(void)
{
    test_open_call();
    test_open_reply();
    test_lock();
    test_attrs_and_dirs();
    test_pnfs();
    test_cb();
    return check_done("test_nfs4_ops");
}
