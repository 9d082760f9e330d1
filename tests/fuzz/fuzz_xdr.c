/* Fuzz target (3): every XDR decoder entry point on arbitrary bytes.
 * Input: byte 0 picks the decoder, byte 1 the procedure, bytes 2-3 where a
 * hole (bytes not captured) cuts the body and how long it is; the rest is the
 * message body. Each decoder is run on the body read as a plain buffer and as
 * a message of spans with a hole in it. */
#include <stdint.h>
#include <string.h>

#include "fuzz_asan_options.h"
#include "mount_decode.h"
#include "nfs3_decode.h"
#include "nfs4_decode.h"
#include "nfs_dispatch.h"
#include "rpc_msg.h"
#include "xdr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run(uint8_t which, uint32_t proc, struct xdr *x)
{
    static struct ns_txn t;
    static struct ns_stats st;
    memset(&t, 0, sizeof t);
    switch (which % 12) {
    case 0: { struct nfs3_call c; nfs3_decode_call(x, proc % 24, &c); break; }
    case 1: { struct nfs3_reply r; nfs3_decode_reply(x, proc % 24, &r); break; }
    case 2: { struct nfs4_call c; nfs4_decode_compound_call(x, &c, NULL); break; }
    case 3: { struct nfs4_reply r; nfs4_decode_compound_reply(x, &r, NULL); break; }
    case 4: { struct nfs4_call c; nfs4_decode_cb_compound_call(x, &c, NULL); break; }
    case 5: { struct nfs4_reply r; nfs4_decode_cb_compound_reply(x, &r, NULL); break; }
    case 6: { struct mount3_call c; mount3_decode_call(x, proc % 8, &c); break; }
    case 7: { struct mount3_reply r; mount3_decode_reply(x, proc % 8, &r); break; }
    case 8: case 9: {
        /* the dispatcher, as the analyzer calls it: pick program by proc bits */
        static const uint32_t progs[4] = {100003, 100003, 100005, 0x40000000};
        t.prog = progs[proc & 3];
        t.vers = (proc & 3) == 0 ? 3 : (proc & 3) == 1 ? 4 : 3;
        t.proc = (proc >> 2) % 24;
        t.backchannel = (proc & 3) == 3;
        if (t.backchannel) t.proc = 1;
        if (which % 12 == 8) nfs_decode_call(&t, x, &st, NULL, NULL, NULL);
        else { t.kind = 0; nfs_decode_reply(&t, x, &st, NULL, NULL); }
        (void)nfs_txn_opkey(&t);
        break;
    }
    default: break; /* the RPC header: handled by the caller */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || size > 1u << 20) return 0;
    uint8_t which = data[0], proc = data[1];
    const uint8_t *body = data + 4;
    uint32_t n = (uint32_t)(size - 4);
    uint32_t cut = n ? data[2] % (n + 1) : 0;
    uint32_t hole = (uint32_t)data[3] * 4;
    struct ns_span spans[3] = {{body, cut}, {NULL, hole}, {body + cut, n - cut}};
    struct ns_msg whole = {spans, 1, n};
    struct ns_span one = {body, n};
    whole.spans = &one;
    struct ns_msg holed = {spans, 3, n + hole};

    const struct ns_msg *msgs[2] = {&whole, &holed};
    for (int i = 0; i < 2; i++) {
        if (which % 12 >= 10) {
            struct rpc_hdr h;
            if (rpc_parse_header(msgs[i], &h) == 0) {
                struct rpc_hdr h2 = h;
                rpc_unwrap_gss(&h2, proc % 4);
                if (h.msgtype == RPC_CALL) {
                    struct nfs4_call c;
                    nfs4_decode_compound_call(&h.body, &c, NULL);
                } else {
                    struct nfs4_reply r;
                    nfs4_decode_compound_reply(&h.body, &r, NULL);
                }
            }
            bool is_reply;
            uint32_t xid;
            rpc_looks_like(body, n < 64 ? n : 64, n, &is_reply, &xid);
            continue;
        }
        struct xdr x;
        if (i == 0) xdr_init_mem(&x, body, n);
        else xdr_init(&x, msgs[i]);
        run(which, proc, &x);
    }
    return 0;
}
