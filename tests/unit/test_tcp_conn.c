/* The TCP connection policy (stream/tcp_conn.h): its decisions on flows
 * brought to a known state by the reassembler. Expected answers come from
 * TCP's sequence space (RFC 9293 §3.4: the SYN and the FIN take one number
 * each, data starts at ISN+1), RFC 5961 §3.2 (an RST resets only at the next
 * expected sequence number), and the budget's arithmetic worked by hand. */
#include <stdlib.h>

#include "check.h"
#include "flow.h"
#include "tcp_conn.h"

#define BUDGET 8454144u /* 8 MiB, the longest record, and 64 KiB: the analyzer's default */

struct env {
    struct memcap mc;
    struct tcp_reasm_stats st;
    struct tcp_ctx c;
    struct flow f;
};

static void on_bytes(void *ctx, int dir, const uint8_t *data, uint32_t len, enum tcp_hole_kind kind,
                     uint64_t frame, int64_t ts)
{
    (void)ctx, (void)dir, (void)data, (void)len, (void)kind, (void)frame, (void)ts;
}

/* A flow between 10.0.0.1:sport (side 0: the lower address) and 10.0.0.2:dport. */
static void env_init(struct env *e, uint16_t sport, uint16_t dport)
{
    memset(e, 0, sizeof *e);
    memcap_init(&e->mc, 16 << 20);
    e->c = (struct tcp_ctx){&e->mc, &e->st, on_bytes, NULL};
    struct ns_addr a = {4, {10, 0, 0, 1}}, b = {4, {10, 0, 0, 2}};
    int side;
    flow_key_make(&e->f.key, 6, &a, sport, &b, dport, &side);
    CHECK_EQ_U(side, 0);
    e->f.in_use = true;
}

static void env_done(struct env *e)
{
    for (int d = 0; d < 2; d++) tcp_reasm_release(&e->c, &e->f.tcp[d]);
    CHECK_EQ_U(e->mc.total_used, 0);
}

/* A segment sent by side: len payload bytes (none captured: the policy
 * reads sequence numbers only). */
static void seg(struct env *e, int side, uint8_t flags, uint32_t seq, uint32_t len)
{
    struct tcp_segment_in in = {seq, 0, flags, NULL, 0, len, 1, 1000};
    tcp_reasm_segment(&e->c, &e->f.tcp[side], side, &e->f.tcp[side ^ 1], &in);
}

static void test_rpc_ports(void)
{
    const uint16_t none[16] = {0}, more[16] = {0, 5000};
    CHECK(tcp_conn_rpc_port(2049, none, 16));   /* NFS */
    CHECK(tcp_conn_rpc_port(111, none, 16));    /* portmap/rpcbind */
    CHECK(tcp_conn_rpc_port(20048, none, 16));  /* mountd */
    CHECK(!tcp_conn_rpc_port(5000, none, 16));
    CHECK(tcp_conn_rpc_port(5000, more, 16));   /* --rpc-port 5000 */
    CHECK(!tcp_conn_rpc_port(0, more, 16));     /* an unused entry names no port */
    CHECK(!tcp_conn_rpc_port(5001, more, 16));
}

/* Records are in sync from the first byte only after a SYN on an RPC port. */
static void test_start(void)
{
    struct env e;
    env_init(&e, 40000, 2049);
    tcp_conn_start(&e.f, true, true);
    CHECK(!e.f.tcp_conn.mid_stream);
    CHECK_EQ_U(e.f.rec[0].state, REC_MARK);
    CHECK_EQ_U(e.f.rec[1].state, REC_MARK);
    env_init(&e, 40000, 2049);
    tcp_conn_start(&e.f, false, true);  /* picked up mid-stream: search */
    CHECK(e.f.tcp_conn.mid_stream);
    CHECK_EQ_U(e.f.rec[0].state, REC_SYNC);
    env_init(&e, 40000, 50000);
    tcp_conn_start(&e.f, true, false);  /* a SYN off the RPC ports: search */
    CHECK(!e.f.tcp_conn.mid_stream);
    CHECK_EQ_U(e.f.rec[1].state, REC_SYNC);
}

/* Side 0 opened with ISN 1000 and sent 100 bytes (1001..1100). */
static void opened(struct env *e)
{
    tcp_conn_start(&e->f, true, true);
    seg(e, 0, TH_SYN, 1000, 0);
    seg(e, 0, TH_ACK, 1001, 100);
    CHECK_EQ_U(e->f.tcp[0].next_seq, 1101);
}

static void test_port_reuse(void)
{
    struct env e;
    env_init(&e, 40000, 2049);
    opened(&e);
    CHECK(!tcp_conn_reused(&e.f, 0, TH_SYN, 1000));          /* the SYN again: the same connection */
    CHECK(!tcp_conn_reused(&e.f, 0, TH_SYN, 1050));          /* inside delivered bytes: stale, no new one */
    CHECK(!tcp_conn_reused(&e.f, 0, TH_SYN, 1100));          /* the last delivered byte: stale too */
    CHECK(tcp_conn_reused(&e.f, 0, TH_SYN, 900000));         /* a new ISN: a new connection */
    CHECK(!tcp_conn_reused(&e.f, 0, TH_SYN | TH_ACK, 900000)); /* a SYN-ACK starts none */
    CHECK(!tcp_conn_reused(&e.f, 1, TH_SYN, 7000));          /* side 1 sent no SYN: nothing to differ from */
    CHECK(!tcp_conn_reused(&e.f, 0, TH_ACK, 900000));
    /* the old connection ended: a SYN on its port pair starts a new one,
     * whatever its sequence number */
    seg(&e, 0, TH_FIN | TH_ACK, 1101, 0);
    seg(&e, 1, TH_FIN | TH_ACK, 5000, 0);
    CHECK(tcp_conn_ended(&e.f));
    CHECK(tcp_conn_reused(&e.f, 0, TH_SYN, 1000));
    CHECK(tcp_conn_reused(&e.f, 1, TH_SYN, 5000));
    CHECK(!tcp_conn_reused(&e.f, 0, TH_SYN | TH_ACK, 1000));
    /* the restart clears the policy's, the reassembler's and record
     * marking's parts and reopens the flow; the RPC stage's is its own */
    CHECK(tcp_conn_release(&e.f, 5));
    e.f.rpc.conn_id = 7;
    tcp_reasm_release(&e.c, &e.f.tcp[0]);
    tcp_reasm_release(&e.c, &e.f.tcp[1]);
    tcp_conn_restart(&e.f);
    CHECK(!e.f.closed && !e.f.tcp_conn.released && !e.f.tcp[0].syn_seen && !e.f.tcp[0].have_seq);
    CHECK_EQ_U(e.f.rec[0].state, 0);
    CHECK_EQ_U(e.f.rpc.conn_id, 7);
    CHECK_EQ_U(e.f.key.port[0], 40000);
    CHECK(e.f.in_use);
    env_done(&e);
}

static void test_rst(void)
{
    struct env e;
    /* at the next expected byte (1101): the connection ends */
    env_init(&e, 40000, 2049);
    opened(&e);
    CHECK(tcp_conn_rst(&e.f, 0, 1101, &e.st));
    CHECK(e.f.closed);
    CHECK_EQ_U(e.st.rst_ignored, 0);
    env_done(&e);
    /* elsewhere in the window, or behind: ignored and counted */
    env_init(&e, 40000, 2049);
    opened(&e);
    CHECK(!tcp_conn_rst(&e.f, 0, 1200, &e.st));
    CHECK(!tcp_conn_rst(&e.f, 0, 1100, &e.st));
    CHECK(!tcp_conn_rst(&e.f, 0, 1102, &e.st));   /* no FIN took 1101 */
    CHECK(!e.f.closed);
    CHECK_EQ_U(e.st.rst_ignored, 3);
    CHECK(!tcp_conn_ended(&e.f));
    /* after side 0's FIN (number 1101) the next one is 1102 */
    seg(&e, 0, TH_FIN | TH_ACK, 1101, 0);
    CHECK(tcp_conn_rst(&e.f, 0, 1102, &e.st));
    CHECK(e.f.closed);
    env_done(&e);
    /* nothing known of side 1's stream: any RST from it is taken */
    env_init(&e, 40000, 2049);
    opened(&e);
    CHECK(tcp_conn_rst(&e.f, 1, 123456, &e.st));
    env_done(&e);
    /* bytes 1201..1300 wait behind a gap (1101..1200 not seen): an RST at
     * the end of what is queued (1301) follows bytes lost from the capture */
    env_init(&e, 40000, 2049);
    opened(&e);
    seg(&e, 0, TH_ACK, 1201, 100);
    CHECK(!tcp_conn_rst(&e.f, 0, 1300, &e.st));
    CHECK(tcp_conn_rst(&e.f, 0, 1301, &e.st));
    env_done(&e);
}

/* A connection picked up mid-stream off the RPC ports is searched for RPC
 * at most BUDGET bytes each way: with 1448-byte segments, 5838 of them are
 * 8,453,424 bytes (within), the 5839th brings 8,454,872 (over). */
static void test_midstream_gives_up(void)
{
    CHECK_EQ_U(TCP_CONN_PROBE_BUDGET, BUDGET);
    struct env e;
    env_init(&e, 40000, 50000);
    tcp_conn_start(&e.f, false, false);
    for (int i = 0; i < 5838; i++) CHECK(tcp_conn_probe(&e.f, 0, 1448, BUDGET));
    CHECK(tcp_conn_probe(&e.f, 1, 1448, BUDGET));       /* each way has its own budget */
    CHECK(!e.f.tcp_conn.not_rpc);
    CHECK(tcp_conn_takes(&e.f, 0, 1, 1448, TH_ACK, 0));
    CHECK(!tcp_conn_probe(&e.f, 0, 1448, BUDGET));      /* the 5839th: given up */
    CHECK(e.f.tcp_conn.not_rpc);
    CHECK(!tcp_conn_takes(&e.f, 0, 1, 1448, TH_ACK, 0)); /* nothing more is looked at */
    CHECK(!tcp_conn_takes(&e.f, 1, 1, 1448, TH_ACK, 0));
    /* exactly the budget is still searched; one byte more is not */
    env_init(&e, 40000, 50000);
    tcp_conn_start(&e.f, false, false);
    CHECK(tcp_conn_probe(&e.f, 0, 1000, 1000));
    CHECK(!tcp_conn_probe(&e.f, 0, 1, 1000));
    /* a budget past 32 bits counts as UINT32_MAX */
    env_init(&e, 40000, 50000);
    tcp_conn_start(&e.f, false, false);
    CHECK(tcp_conn_probe(&e.f, 0, UINT32_MAX, UINT64_MAX));
    CHECK(!tcp_conn_probe(&e.f, 0, 1, UINT64_MAX));
    /* once the connection is known to carry RPC it is never given up */
    env_init(&e, 40000, 50000);
    tcp_conn_start(&e.f, false, false);
    e.f.rpc.conn_id = 1;
    for (int i = 0; i < 10000; i++) CHECK(tcp_conn_probe(&e.f, 0, 1448, BUDGET));
    CHECK(!e.f.tcp_conn.not_rpc);
    CHECK(tcp_conn_counts_unsynced(&e.f));
}

/* On an RPC port (here --rpc-port 5000) a connection is searched for its
 * whole life: 100 MB each way mid-stream, never given up. */
static void test_rpc_port_whole_life(void)
{
    const uint16_t more[16] = {5000};
    struct env e;
    env_init(&e, 5000, 40000);
    bool rpc_port = tcp_conn_rpc_port(e.f.key.port[0], more, 16) || tcp_conn_rpc_port(e.f.key.port[1], more, 16);
    CHECK(rpc_port);
    tcp_conn_start(&e.f, false, rpc_port);
    bool all = true;
    for (int i = 0; i < 100000; i++)
        all = all && tcp_conn_probe(&e.f, i & 1, 2000, BUDGET);
    CHECK(all);
    CHECK(!e.f.tcp_conn.not_rpc);
    CHECK(tcp_conn_counts_unsynced(&e.f));
    /* the same connection without the option: given up within the budget */
    env_init(&e, 5000, 40000);
    tcp_conn_start(&e.f, false, false);
    CHECK(!tcp_conn_counts_unsynced(&e.f));
    int n = 0;
    while (n < 100000 && tcp_conn_probe(&e.f, 0, 2000, BUDGET)) n++;
    CHECK_EQ_U(n, 4227); /* 4227 * 2000 = 8,454,000 <= 8,454,144 < 8,456,000 */
}

/* Segments before the connection is known to carry RPC are counted, then
 * handed over once. */
static void test_early_counts(void)
{
    struct tcp_conn c = {0};
    tcp_conn_count_early(&c, 0, 0);    /* SYN */
    tcp_conn_count_early(&c, 1, 0);    /* SYN-ACK */
    tcp_conn_count_early(&c, 0, 148);
    tcp_conn_count_early(&c, 1, 96);
    tcp_conn_count_early(&c, 0, 1448);
    tcp_conn_count_early_tcp(&c, 1, 2);
    tcp_conn_count_early_tcp(&c, 70000, 0); /* saturates at 65535 */
    struct tcp_conn_early x = tcp_conn_take_early(&c);
    CHECK_EQ_U(x.frames, 5);
    CHECK_EQ_U(x.bytes[0], 1596);
    CHECK_EQ_U(x.bytes[1], 96);
    CHECK_EQ_U(x.retrans, 65535);
    CHECK_EQ_U(x.ooo, 2);
    x = tcp_conn_take_early(&c);      /* once */
    CHECK_EQ_U(x.frames + x.bytes[0] + x.bytes[1] + x.retrans + x.ooo, 0);
}

/* An ended connection takes only a segment continuing either stream within
 * TCP_CONN_LINGER of its end. */
static void test_ended_takes_late(void)
{
    struct env e;
    env_init(&e, 40000, 2049);
    opened(&e);
    seg(&e, 1, TH_SYN | TH_ACK, 5000, 0);
    seg(&e, 1, TH_ACK, 5001, 200);    /* 5001..5200 */
    CHECK(!tcp_conn_ended(&e.f));
    CHECK(tcp_conn_rst(&e.f, 0, 1101, &e.st));
    CHECK(tcp_conn_ended(&e.f));
    int64_t end = 10 * 1000000000ll;
    CHECK(tcp_conn_release(&e.f, end));
    CHECK(!tcp_conn_release(&e.f, end + 1)); /* once */
    CHECK(tcp_conn_takes(&e.f, 1, 5101, 200, TH_ACK, end + 1));          /* 5101..5300: new bytes from 5201 */
    CHECK(tcp_conn_takes(&e.f, 1, 5201, 100, TH_ACK, end + TCP_CONN_LINGER));
    CHECK(!tcp_conn_takes(&e.f, 1, 5201, 100, TH_ACK, end + TCP_CONN_LINGER + 1)); /* too late */
    CHECK(!tcp_conn_takes(&e.f, 1, 5001, 200, TH_ACK, end + 1));         /* nothing new */
    CHECK(!tcp_conn_takes(&e.f, 1, 5301, 100, TH_ACK, end + 1));         /* not continuing: after a gap */
    CHECK(!tcp_conn_takes(&e.f, 1, 5201, 0, TH_ACK, end + 1));           /* no payload */
    CHECK(!tcp_conn_takes(&e.f, 1, 5201, 100, TH_ACK | TH_RST, end + 1));
    CHECK(!tcp_conn_takes(&e.f, 1, 5201, 100, TH_SYN, end + 1));
    env_done(&e);
}

int main(void)
{
    test_rpc_ports();
    test_start();
    test_port_reuse();
    test_rst();
    test_midstream_gives_up();
    test_rpc_port_whole_life();
    test_early_counts();
    test_ended_takes_late();
    return check_done("test_tcp_conn");
}
