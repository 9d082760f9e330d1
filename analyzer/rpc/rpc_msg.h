/* ONC RPC message header (RFC 5531) and RPCSEC_GSS wrapping (RFC 2203). */
#ifndef NFSSCOPE_RPC_MSG_H
#define NFSSCOPE_RPC_MSG_H
#include <stdbool.h>
#include <stdint.h>

#include "xdr.h"

#define RPC_CALL 0
#define RPC_REPLY 1
#define AUTH_RPCSEC_GSS 6
#define RPCSEC_GSS_DATA 0
#define AUTH_SYS 1
#define RPC_GSS_HANDLE_KEEP 16
#define RPC_AUTH_MAX 400 /* RFC 5531: opaque_auth body is at most 400 bytes */

struct rpc_hdr {
    uint32_t xid, msgtype;
    /* CALL */
    uint32_t rpcvers, prog, vers, proc;
    uint32_t cred_flavor, verf_flavor;
    uint32_t gss_proc, gss_service; /* RPCSEC_GSS credential (service 1 none, 2 integrity, 3 privacy) */
    bool has_unix;                  /* AUTH_SYS credential read: uid, gid */
    uint32_t uid, gid;
    uint8_t gss_handle_len;         /* RPCSEC_GSS context handle, bytes kept (first RPC_GSS_HANDLE_KEEP) */
    uint8_t gss_handle[16];
    /* REPLY */
    uint32_t reply_stat;            /* 0 accepted, 1 denied */
    uint32_t stat;                  /* accept_stat, or reject_stat when denied */
    uint32_t auth_stat;             /* denied with AUTH_ERROR */
    struct xdr body;                /* arguments / results, positioned after the header */
    uint8_t call_words;             /* CALL: header words captured after the msgtype (rpcvers, prog, vers, proc, cred flavor) */
};

/* Parse the header of message m. Returns 0, or -1 (x->err in h->body tells:
 * the header was not captured (XDR_ERR_TRUNC) or is not RPC). */
int rpc_parse_header(const struct ns_msg *m, struct rpc_hdr *h);
/* Position h->body at the procedure arguments/results inside an RPCSEC_GSS
 * integrity wrapper (service from the call). Returns false for privacy
 * (encrypted) or when the wrapper does not parse. */
bool rpc_unwrap_gss(struct rpc_hdr *h, uint32_t gss_service);
/* Cheap test used to find record boundaries after a gap: do these bytes
 * (possibly short) start an RPC call or reply? For replies, the caller
 * decides about the XID. *is_reply tells which. */
bool rpc_looks_like(const uint8_t *p, uint32_t n, uint32_t record_len, bool *is_reply, uint32_t *xid);

#endif
