/* MOUNT v3 (RFC 1813 appendix I, program 100005) decoding: MNT's directory
 * path, file handle and auth flavors; the other procedures are walked to
 * their end. Return convention of nfs3_decode.h: 0 = decoded to the end,
 * -1 = unknown procedure, -2 = the reader failed (x->err tells why). What was
 * decoded before a failure stays valid; out is zeroed first. */
#ifndef NFSSCOPE_MOUNT_DECODE_H
#define NFSSCOPE_MOUNT_DECODE_H
#include <stdbool.h>
#include <stdint.h>
#include "xdr.h"

#define MOUNT3_PATH_KEEP 128   /* bytes of a dirpath kept */
#define MOUNT3_FLAVORS_KEEP 8  /* auth flavors kept from an MNT reply */

enum mount3_proc {
    MOUNTPROC3_NULL = 0,
    MOUNTPROC3_MNT = 1,
    MOUNTPROC3_DUMP = 2,
    MOUNTPROC3_UMNT = 3,
    MOUNTPROC3_UMNTALL = 4,
    MOUNTPROC3_EXPORT = 5,
};

struct mount3_call {
    uint32_t proc;
    uint32_t path_wire_len;          /* MNT, UMNT: dirpath length as sent */
    uint16_t path_len;               /* bytes kept, not NUL-terminated */
    char path[MOUNT3_PATH_KEEP];
};

struct mount3_reply {
    uint32_t proc;
    uint32_t status;                 /* MNT: mountstat3 (ns_mount3_status_name) */
    uint8_t fh_len;                  /* MNT, MNT3_OK: the export's root handle */
    uint8_t fh[64];
    uint32_t nflavors_wire;          /* MNT, MNT3_OK: auth flavors as sent */
    uint8_t nflavors;                /* flavors kept (ns_auth_flavor_name) */
    uint32_t flavors[MOUNT3_FLAVORS_KEEP];
    uint32_t entries;                /* DUMP: mount entries; EXPORT: exports */
    bool walk_complete;
};

/* x is positioned at the procedure's arguments / results. */
int mount3_decode_call(struct xdr *x, uint32_t proc, struct mount3_call *out);
int mount3_decode_reply(struct xdr *x, uint32_t proc, struct mount3_reply *out);
/* Any MOUNT version: v3 as above; v1/v2 (RFC 1094 appendix A): MNT's reply
 * is a status and a fixed 32-byte handle, EXPORTALL and (v2) PATHCONF added. */
int mount_decode_call(struct xdr *x, uint32_t vers, uint32_t proc, struct mount3_call *out);
int mount_decode_reply(struct xdr *x, uint32_t vers, uint32_t proc, struct mount3_reply *out);

#endif
