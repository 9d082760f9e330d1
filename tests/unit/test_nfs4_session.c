/* Client and session operations, built byte by byte from RFC 8881 s.18.33-
 * 18.51 and RFC 7530 s.16.33-16.34: SEQUENCE, EXCHANGE_ID (SP4_NONE,
 * SP4_MACH_CRED, SP4_SSV), CREATE_SESSION, BIND_CONN_TO_SESSION,
 * DESTROY_SESSION, DESTROY_CLIENTID, RECLAIM_COMPLETE, SETCLIENTID. */
#include "check.h"
#include "nfs4_build.h"
#include "nfs4_decode.h"

static int dcall(struct xdr *x, void *o) { return nfs4_decode_compound_call(x, o, NULL); }
static int dreply(struct xdr *x, void *o) { return nfs4_decode_compound_reply(x, o, NULL); }

static struct xb b;
static struct nfs4_call c;
static struct nfs4_reply p;

static bool sid_is(const uint8_t *s, uint8_t v)
{
    for (int i = 0; i < 16; i++)
        if (s[i] != (uint8_t)(v + i)) return false;
    return true;
}

static void test_sequence(void)
{
    xb_init(&b);
    xb_call_hdr(&b, "seq", 1, 3);
    xb_u32(&b, 53);
    xb_seq_args(&b, 0x40, 0x12345678, 7, 15, true);
    xb_u32(&b, 22);
    xb_fh(&b, 32, 0x33);
    xb_u32(&b, 9);
    const uint32_t bm[3] = {0x0010011a, 0x00b0a23a, 0};
    xb_bitmap(&b, 3, bm);
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(c.walk_complete);
    CHECK_EQ_U(c.minor, 1);
    CHECK_EQ_U(c.tag_wire_len, 3);
    CHECK(c.has_seq);
    CHECK(sid_is(c.seq.sessionid, 0x40));
    CHECK_EQ_U(c.seq.sequenceid, 0x12345678);
    CHECK_EQ_U(c.seq.slotid, 7);
    CHECK_EQ_U(c.seq.highest_slotid, 15);
    CHECK(c.seq.cachethis);
    CHECK_EQ_U(c.nops, 3);
    CHECK_EQ_U(c.op[0], 53);
    CHECK_EQ_U(c.op[1], 22);
    CHECK_EQ_U(c.op[2], 9);
    CHECK(!c.io.has_io);

    xb_init(&b);
    xb_reply_hdr(&b, 0, "seq", 3);
    xb_u32(&b, 53);
    xb_u32(&b, 0);
    xb_sessionid(&b, 0x40);
    xb_u32(&b, 0x12345678);
    xb_u32(&b, 7);
    xb_u32(&b, 31);
    xb_u32(&b, 29);
    xb_u32(&b, 0x40); /* SEQ4_STATUS_RECALLABLE_STATE_REVOKED */
    xb_u32(&b, 22);
    xb_u32(&b, 0);
    xb_u32(&b, 9);
    xb_u32(&b, 0);
    xb_fattr(&b);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.has_seq);
    CHECK(sid_is(p.seq.sessionid, 0x40));
    CHECK_EQ_U(p.seq.sequenceid, 0x12345678);
    CHECK_EQ_U(p.seq.slotid, 7);
    CHECK_EQ_U(p.seq.highest_slotid, 31);
    CHECK_EQ_U(p.seq.target_highest_slotid, 29);
    CHECK_EQ_U(p.seq.status_flags, 0x40);
    CHECK_EQ_U(p.nres, 3);
    CHECK_EQ_U(p.resop[2], 9);

    /* SEQUENCE failing: the compound ends there, no seq results */
    xb_init(&b);
    xb_reply_hdr(&b, 10063, "", 1);
    xb_u32(&b, 53);
    xb_u32(&b, 10063);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK(!p.has_seq);
    CHECK_EQ_U(p.status, 10063);
    CHECK_EQ_U(p.res_status[0], 10063);

    /* SEQUENCE second: walked, but not the compound's sequence */
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 2);
    xb_op_args(&b, 24);
    xb_op_args(&b, 53);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK(!c.has_seq);

    /* cachethis must be a bool */
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 1);
    xb_u32(&b, 53);
    xb_sessionid(&b, 1);
    xb_u32(&b, 1);
    xb_u32(&b, 0);
    xb_u32(&b, 0);
    xb_u32(&b, 2);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, (unsigned long long)-2);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    CHECK(!c.has_seq);
    CHECK_EQ_U(c.stopped_at_op, 53);
}

static void exchange_id_call(uint32_t how, const char *owner)
{
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 1);
    xb_u32(&b, 42);
    xb_raw(&b, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    xb_str(&b, owner);
    xb_u32(&b, 0x00000103);
    xb_u32(&b, how);
    if (how == 1 || how == 2) {
        const uint32_t enforce[2] = {0x00004000, 0x0000c000}; /* must_enforce */
        const uint32_t allow[3] = {0x1, 0x2, 0x3};
        xb_bitmap(&b, 2, enforce);
        xb_bitmap(&b, 3, allow);
    }
    if (how == 2) {
        xb_u32(&b, 1);
        xb_filled(&b, 9, 0x2b); /* hash OID */
        xb_u32(&b, 2);
        xb_filled(&b, 9, 0x2c);
        xb_filled(&b, 11, 0x2d);
        xb_u32(&b, 16); /* window */
        xb_u32(&b, 2);  /* num_gss_handles */
    }
    xb_u32(&b, 1); /* client_impl_id<1> */
    xb_str(&b, "kernel.org");
    xb_str(&b, "Linux 6.1.0 #1 SMP x86_64");
    xb_nfstime(&b);
}

static void test_exchange_id(void)
{
    const char *own = "Linux NFSv4.2 client.example.com";
    for (uint32_t how = 0; how <= 2; how++) {
        exchange_id_call(how, own);
        struct xb_run r = xb_decode(&b, b.len, dcall, &c);
        CHECK_EQ_U(r.rc, 0);
        CHECK_EQ_U(r.remaining, 0);
        CHECK(c.setup.has_exchange_id);
        CHECK(memcmp(c.setup.exchange_id.verifier, "\x01\x02\x03\x04\x05\x06\x07\x08", 8) == 0);
        CHECK_EQ_U(c.setup.exchange_id.owner_len, strlen(own));
        CHECK_EQ_U(c.setup.exchange_id.owner_wire_len, strlen(own));
        CHECK(memcmp(c.setup.exchange_id.owner, own, strlen(own)) == 0);
        CHECK_EQ_U(c.setup.exchange_id.flags, 0x103);
        CHECK_EQ_U(c.setup.exchange_id.state_protect, how);
        CHECK(!c.has_seq);
    }
    /* an owner longer than NS_OWNER_MAX is cut, its wire length kept */
    char longown[201];
    memset(longown, 'o', 200);
    longown[200] = 0;
    exchange_id_call(0, longown);
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(c.setup.exchange_id.owner_len, NS_OWNER_MAX);
    CHECK_EQ_U(c.setup.exchange_id.owner_wire_len, 200);
    /* unknown state_protect_how4 */
    exchange_id_call(3, own);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    CHECK(!c.setup.has_exchange_id);
    /* client_impl_id<1> with 2 entries */
    exchange_id_call(0, own);
    b.len -= 4 + 16 + 32 + 12; /* count, domain, name, date */
    xb_u32(&b, 2);
    xb_str(&b, "a");
    xb_str(&b, "b");
    xb_nfstime(&b);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);

    for (uint32_t how = 0; how <= 2; how++) {
        xb_init(&b);
        xb_reply_hdr(&b, 0, "", 1);
        xb_u32(&b, 42);
        xb_u32(&b, 0);
        xb_u64(&b, 0x5f0e1d2c3b4a5968ULL);
        xb_u32(&b, 3);
        xb_u32(&b, 0x00020103);
        xb_u32(&b, how);
        if (how >= 1) {
            const uint32_t enforce[2] = {0x00004000, 0x0000c000};
            xb_bitmap(&b, 2, enforce);
            xb_bitmap(&b, 0, NULL);
        }
        if (how == 2) {
            xb_u32(&b, 0);
            xb_u32(&b, 1);
            xb_u32(&b, 32);
            xb_u32(&b, 16);
            xb_u32(&b, 2);
            xb_filled(&b, 7, 1);
            xb_filled(&b, 8, 2);
        }
        xb_u64(&b, 0x1122334455667788ULL);
        xb_str(&b, "server-major");
        xb_str(&b, "scope.example");
        xb_u32(&b, 0); /* no impl id */
        struct xb_run rr = xb_decode(&b, b.len, dreply, &p);
        CHECK_EQ_U(rr.rc, 0);
        CHECK_EQ_U(rr.remaining, 0);
        CHECK(p.setup.has_exchange_id);
        CHECK_EQ_U(p.setup.exchange_id.clientid, 0x5f0e1d2c3b4a5968ULL);
        CHECK_EQ_U(p.setup.exchange_id.sequenceid, 3);
        CHECK_EQ_U(p.setup.exchange_id.flags, 0x20103);
        CHECK_EQ_U(p.setup.exchange_id.state_protect, how);
        CHECK_EQ_U(p.setup.exchange_id.server_minor_id, 0x1122334455667788ULL);
        CHECK_EQ_U(p.setup.exchange_id.server_major_len, 12);
        CHECK(memcmp(p.setup.exchange_id.server_major, "server-major", 12) == 0);
        CHECK_EQ_U(p.setup.exchange_id.scope_len, 13);
        CHECK(memcmp(p.setup.exchange_id.scope, "scope.example", 13) == 0);
    }
    /* failed EXCHANGE_ID: no results */
    xb_init(&b);
    xb_reply_hdr(&b, 10017, "", 1);
    xb_u32(&b, 42);
    xb_u32(&b, 10017);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK(!p.setup.has_exchange_id);
}

static void chan(struct xb *m, uint32_t base, bool ird)
{
    for (uint32_t i = 0; i < 6; i++) xb_u32(m, base + i);
    xb_u32(m, ird ? 1 : 0);
    if (ird) xb_u32(m, 4);
}

static void check_chan(const struct nfs4_chan_attrs *a, uint32_t base, uint32_t ird)
{
    CHECK_EQ_U(a->headerpadsize, base);
    CHECK_EQ_U(a->maxrequestsize, base + 1);
    CHECK_EQ_U(a->maxresponsesize, base + 2);
    CHECK_EQ_U(a->maxresponsesize_cached, base + 3);
    CHECK_EQ_U(a->maxoperations, base + 4);
    CHECK_EQ_U(a->maxrequests, base + 5);
    CHECK_EQ_U(a->rdma_ird_count, ird);
}

/* CREATE_SESSION4args; bad_sec: an AUTH_SYS parm with 17 gids (over 16). */
static void create_session_call(bool bad_sec)
{
    xb_init(&b);
    xb_call_hdr(&b, "cs", 1, 1);
    xb_u32(&b, 43);
    xb_u64(&b, 0xabcdef0123456789ULL);
    xb_u32(&b, 17);
    xb_u32(&b, 3); /* PERSIST | CONN_BACK_CHAN */
    chan(&b, 100, false);
    chan(&b, 200, true);
    xb_u32(&b, 0x40000000);
    xb_u32(&b, 3); /* sec parms: AUTH_NONE, AUTH_SYS, RPCSEC_GSS */
    xb_u32(&b, 0);
    xb_u32(&b, 1);
    xb_u32(&b, 12345);
    xb_str(&b, "client");
    xb_u32(&b, 1000);
    xb_u32(&b, 1000);
    uint32_t ngids = bad_sec ? 17 : 2;
    xb_u32(&b, ngids);
    for (uint32_t i = 0; i < ngids; i++) xb_u32(&b, 10 + i);
    xb_u32(&b, 6);
    xb_u32(&b, 1);
    xb_filled(&b, 5, 1);
    xb_filled(&b, 6, 2);
}

static void test_create_session(void)
{
    create_session_call(false);
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(c.setup.has_create_session);
    CHECK_EQ_U(c.setup.create_session.clientid, 0xabcdef0123456789ULL);
    CHECK_EQ_U(c.setup.create_session.sequence, 17);
    CHECK_EQ_U(c.setup.create_session.flags, 3);
    check_chan(&c.setup.create_session.fore, 100, 0);
    check_chan(&c.setup.create_session.back, 200, 1);
    CHECK_EQ_U(c.setup.create_session.cb_program, 0x40000000);

    /* AUTH_SYS with 17 gids is invalid */
    create_session_call(true);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);
    CHECK(!c.setup.has_create_session);

    /* ca_rdma_ird<1> with 2 entries */
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 1);
    xb_u32(&b, 43);
    xb_u64(&b, 1);
    xb_u32(&b, 1);
    xb_u32(&b, 0);
    for (int i = 0; i < 6; i++) xb_u32(&b, 1);
    xb_u32(&b, 2);
    xb_u32(&b, 1);
    xb_u32(&b, 1);
    chan(&b, 1, false);
    xb_u32(&b, 1);
    xb_u32(&b, 0);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.err, XDR_ERR_BAD);

    xb_init(&b);
    xb_reply_hdr(&b, 0, "cs", 1);
    xb_u32(&b, 43);
    xb_u32(&b, 0);
    xb_sessionid(&b, 0x90);
    xb_u32(&b, 17);
    xb_u32(&b, 2);
    chan(&b, 300, true);
    chan(&b, 400, false);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.setup.has_create_session);
    CHECK(sid_is(p.setup.create_session.sessionid, 0x90));
    CHECK_EQ_U(p.setup.create_session.sequence, 17);
    CHECK_EQ_U(p.setup.create_session.flags, 2);
    check_chan(&p.setup.create_session.fore, 300, 1);
    check_chan(&p.setup.create_session.back, 400, 0);
}

static void test_bind_conn_and_teardown(void)
{
    xb_init(&b);
    xb_call_hdr(&b, "", 1, 4);
    xb_u32(&b, 41);
    xb_sessionid(&b, 0x70);
    xb_u32(&b, 7); /* CDFC4_BACK_OR_BOTH */
    xb_bool(&b, true);
    xb_u32(&b, 44);
    xb_sessionid(&b, 0x71);
    xb_u32(&b, 57);
    xb_u64(&b, 0x0102030405060708ULL);
    xb_u32(&b, 58);
    xb_bool(&b, true);
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK(c.setup.has_bind_conn);
    CHECK(sid_is(c.setup.bind_conn.sessionid, 0x70));
    CHECK_EQ_U(c.setup.bind_conn.dir, 7);
    CHECK(c.setup.bind_conn.use_rdma);
    CHECK(c.setup.has_destroy_session);
    CHECK(sid_is(c.setup.destroy_session_id, 0x71));
    CHECK(c.setup.has_destroy_clientid);
    CHECK_EQ_U(c.setup.destroy_clientid, 0x0102030405060708ULL);
    CHECK(c.setup.has_reclaim_complete);
    CHECK(c.setup.reclaim_one_fs);

    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 1);
    xb_u32(&b, 41);
    xb_u32(&b, 0);
    xb_sessionid(&b, 0x70);
    xb_u32(&b, 3); /* CDFS4_BOTH */
    xb_bool(&b, false);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(p.setup.has_bind_conn);
    CHECK(sid_is(p.setup.bind_conn.sessionid, 0x70));
    CHECK_EQ_U(p.setup.bind_conn.dir, 3);
    CHECK(!p.setup.bind_conn.use_rdma);

    xb_init(&b);
    xb_reply_hdr(&b, 10055, "", 1);
    xb_u32(&b, 41);
    xb_u32(&b, 10055);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK(!p.setup.has_bind_conn);
    CHECK_EQ_U(p.res_status[0], 10055);
}

static void test_setclientid(void)
{
    xb_init(&b);
    xb_call_hdr(&b, "", 0, 1);
    xb_u32(&b, 35);
    xb_raw(&b, "VERIFIER", 8);
    xb_str(&b, "0.0.0.0/10.1.2.3 tcp UNIX 0");
    xb_u32(&b, 0x40000000);
    xb_str(&b, "tcp");
    xb_str(&b, "10.1.2.3.128.5");
    xb_u32(&b, 1);
    struct xb_run r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK_EQ_U(c.minor, 0);
    CHECK(c.setup.has_setclientid);
    CHECK(memcmp(c.setup.setclientid.verifier, "VERIFIER", 8) == 0);
    CHECK_EQ_U(c.setup.setclientid.owner_len, 27);
    CHECK(memcmp(c.setup.setclientid.owner, "0.0.0.0/10.1.2.3 tcp UNIX 0", 27) == 0);
    CHECK_EQ_U(c.setup.setclientid.cb_program, 0x40000000);
    CHECK_EQ_U(c.setup.setclientid.callback_ident, 1);

    xb_init(&b);
    xb_reply_hdr(&b, 0, "", 1);
    xb_u32(&b, 35);
    xb_u32(&b, 0);
    xb_u64(&b, 0x600d);
    xb_raw(&b, "CONFIRM!", 8);
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK(p.setup.has_setclientid);
    CHECK_EQ_U(p.setup.setclientid.clientid, 0x600d);
    CHECK(memcmp(p.setup.setclientid.confirm, "CONFIRM!", 8) == 0);

    /* NFS4ERR_CLID_INUSE carries the clientaddr4 in use */
    xb_init(&b);
    xb_reply_hdr(&b, 10017, "", 1);
    xb_u32(&b, 35);
    xb_u32(&b, 10017);
    xb_str(&b, "tcp");
    xb_str(&b, "10.9.9.9.8.1");
    r = xb_decode(&b, b.len, dreply, &p);
    CHECK_EQ_U(r.rc, 0);
    CHECK_EQ_U(r.remaining, 0);
    CHECK(!p.setup.has_setclientid);

    xb_init(&b);
    xb_call_hdr(&b, "", 0, 2);
    xb_u32(&b, 36);
    xb_u64(&b, 0x600d);
    xb_raw(&b, "CONFIRM!", 8);
    xb_u32(&b, 30);
    xb_u64(&b, 0x600d);
    r = xb_decode(&b, b.len, dcall, &c);
    CHECK_EQ_U(r.rc, 0);
    CHECK(c.setup.has_setclientid_confirm);
    CHECK_EQ_U(c.setup.setclientid_confirm.clientid, 0x600d);
    CHECK(memcmp(c.setup.setclientid_confirm.verifier, "CONFIRM!", 8) == 0);
    CHECK(!c.setup.has_setclientid);
}

int main(void)
{
    test_sequence();
    test_exchange_id();
    test_create_session();
    test_bind_conn_and_teardown();
    test_setclientid();
    return check_done("test_nfs4_session");
}
