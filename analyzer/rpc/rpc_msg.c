#include "rpc_msg.h"

#include <string.h>

static void skip_auth(struct xdr *x, uint32_t *flavor)
{
    *flavor = xdr_u32(x);
    xdr_skip_opaque(x, RPC_AUTH_MAX);
}

int rpc_parse_header(const struct ns_msg *m, struct rpc_hdr *h)
{
    memset(h, 0, sizeof *h);
    struct xdr *x = &h->body;
    xdr_init(x, m);
    h->xid = xdr_u32(x);
    h->msgtype = xdr_u32(x);
    if (!xdr_ok(x)) return -1;
    if (h->msgtype == RPC_CALL) {
        /* word by word: a header cut by the snaplen still tells what it reached */
        uint32_t *w[4] = {&h->rpcvers, &h->prog, &h->vers, &h->proc};
        for (int i = 0; i < 4; i++) {
            *w[i] = xdr_u32(x);
            if (xdr_ok(x)) h->call_words++;
        }
        h->cred_flavor = xdr_u32(x);
        if (xdr_ok(x)) h->call_words++;
        uint32_t clen = xdr_u32(x);
        if (!xdr_ok(x)) return -1;
        if (h->rpcvers != 2 || clen > RPC_AUTH_MAX || clen > xdr_remaining(x)) {
            xdr_fail(x, XDR_ERR_BAD);
            return -1;
        }
        if (h->cred_flavor == AUTH_RPCSEC_GSS) {
            struct xdr c;
            xdr_sub(x, clen, &c);
            xdr_u32(&c); /* gss version */
            h->gss_proc = xdr_u32(&c);
            xdr_u32(&c); /* seq_num */
            h->gss_service = xdr_u32(&c);
            uint32_t n = xdr_opaque(&c, h->gss_handle, RPC_GSS_HANDLE_KEEP, RPC_AUTH_MAX);
            if (xdr_ok(&c)) h->gss_handle_len = (uint8_t)(n < RPC_GSS_HANDLE_KEEP ? n : RPC_GSS_HANDLE_KEEP);
        } else if (h->cred_flavor == AUTH_SYS) {
            /* authsys_parms: stamp, machinename<255>, uid, gid, gids<16>;
             * read in place when the credential lies in one captured run */
            uint32_t run;
            const uint8_t *p = xdr_captured_run(x, &run);
            if (p && run >= clen && clen >= 16) {
                uint32_t nl = (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 | (uint32_t)p[6] << 8 | p[7];
                uint32_t at = 8 + ((nl + 3) & ~3u);
                if (nl <= 255 && at + 8 <= clen) {
                    h->uid = (uint32_t)p[at] << 24 | (uint32_t)p[at + 1] << 16 | (uint32_t)p[at + 2] << 8 | p[at + 3];
                    at += 4;
                    h->gid = (uint32_t)p[at] << 24 | (uint32_t)p[at + 1] << 16 | (uint32_t)p[at + 2] << 8 | p[at + 3];
                    h->has_unix = true;
                }
            }
        }
        xdr_skip(x, (clen + 3) & ~3u);
        skip_auth(x, &h->verf_flavor);
        return xdr_ok(x) ? 0 : -1;
    }
    if (h->msgtype != RPC_REPLY) {
        xdr_fail(x, XDR_ERR_BAD);
        return -1;
    }
    h->reply_stat = xdr_u32(x);
    if (h->reply_stat == 0) {
        skip_auth(x, &h->verf_flavor);
        h->stat = xdr_u32(x);
        if (h->stat == 2) { xdr_u32(x); xdr_u32(x); } /* PROG_MISMATCH low/high */
        if (h->stat > 5) xdr_fail(x, XDR_ERR_BAD);
    } else if (h->reply_stat == 1) {
        uint32_t r = xdr_u32(x);
        h->stat = 100 + r;
        if (r == 0) { xdr_u32(x); xdr_u32(x); }
        else if (r == 1) h->auth_stat = xdr_u32(x);
        else xdr_fail(x, XDR_ERR_BAD);
    } else {
        xdr_fail(x, XDR_ERR_BAD);
    }
    return xdr_ok(x) ? 0 : -1;
}

bool rpc_unwrap_gss(struct rpc_hdr *h, uint32_t gss_service)
{
    if (gss_service == 3) return false;
    if (gss_service != 2) return true;
    /* rpc_gss_integ_data: opaque databody_integ<> = seq_num + arguments */
    uint32_t len = xdr_u32(&h->body);
    struct xdr inner;
    xdr_sub(&h->body, len, &inner);
    if (!xdr_ok(&h->body) || len < 4) return false;
    xdr_u32(&inner); /* seq_num */
    h->body = inner;
    return xdr_ok(&inner);
}

bool rpc_looks_like(const uint8_t *p, uint32_t n, uint32_t record_len, bool *is_reply, uint32_t *xid)
{
    if (n < 12) return false;
    struct xdr x;
    xdr_init_mem(&x, p, n);
    *xid = xdr_u32(&x);
    uint32_t type = xdr_u32(&x);
    if (type == RPC_CALL) {
        *is_reply = false;
        if (record_len < 40 || n < 20) return false;
        uint32_t rpcvers = xdr_u32(&x), prog = xdr_u32(&x), vers = xdr_u32(&x);
        /* Fewer than 32 bytes here (the snaplen cut the header before the
         * credential, or the chunk ends): judge from the words that are
         * there, as tshark does (record_len >= 40 > n: the rest exists). */
        if (n < 32) return rpcvers == 2 && prog != 0 && vers < 16;
        xdr_u32(&x); /* proc */
        uint32_t flavor = xdr_u32(&x), clen = xdr_u32(&x);
        return xdr_ok(&x) && rpcvers == 2 && prog != 0 && vers < 16 && flavor < 16 && clen <= RPC_AUTH_MAX &&
               clen + 40 <= record_len;
    }
    if (type == RPC_REPLY) {
        *is_reply = true;
        uint32_t stat = xdr_u32(&x);
        if (stat == 1) return n >= 16 && xdr_u32(&x) <= 1 && xdr_ok(&x);
        if (stat != 0 || n < 20) return false;
        uint32_t flavor = xdr_u32(&x), vlen = xdr_u32(&x);
        return xdr_ok(&x) && flavor < 16 && vlen <= RPC_AUTH_MAX && vlen + 24 <= record_len;
    }
    return false;
}
