/* Names of protocol numbers, as RFCs (and tshark) spell them. Every function
 * returns a static string, never NULL; unknown numbers give "UNKNOWN". */
#ifndef NFSSCOPE_NAMES_H
#define NFSSCOPE_NAMES_H
#include <stdbool.h>
#include <stdint.h>

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

const char *ns_nfs4_op_name(uint32_t op);        /* "SEQUENCE", "PUTFH", ... "ILLEGAL" */
const char *ns_nfs4_cb_op_name(uint32_t op);     /* "CB_SEQUENCE", ... */
const char *ns_nfs4_status_name(uint32_t st);    /* "NFS4_OK", "NFS4ERR_DELAY", ... */
bool ns_nfs4_op_known(uint32_t op);
bool ns_nfs4_cb_op_known(uint32_t op);
const char *ns_nfs3_proc_name(uint32_t proc);    /* "NULL", "GETATTR", ... "COMMIT" */
const char *ns_nfs3_status_name(uint32_t st);    /* "NFS3_OK", "NFS3ERR_NOENT", ... */
const char *ns_rpc_prog_name(uint32_t prog);     /* "NFS", "MOUNT", "PORTMAP", "NLM", ... */
/* Procedure names of MOUNT v1/v3, PORTMAP v2-4 (rpcbind), NFS v2/3/4, NFS_CB; "UNKNOWN" else. */
const char *ns_rpc_proc_name(uint32_t prog, uint32_t vers, uint32_t proc);
const char *ns_auth_flavor_name(uint32_t flavor); /* "AUTH_NONE", "AUTH_SYS", "RPCSEC_GSS", ... */
const char *ns_mount3_status_name(uint32_t st);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
