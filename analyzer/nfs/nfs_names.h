/* What the decoders tell about names and file handles, for the path map
 * (analysis/who/path_map.h): each step that moves a COMPOUND's current
 * handle or ties a name to a handle, in order, and the handles and
 * directory entries replies return. The decoders only report; the path map
 * decides what a step means once it knows which operations succeeded.
 * Pointers are into the message being decoded: valid during the call only.
 * A decoder given no sink (NULL) does none of this work. */
#ifndef NFSSCOPE_NFS_NAMES_H
#define NFSSCOPE_NFS_NAMES_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/txn.h"

#define NFS_NAME_WIRE_MAX 1024u /* a component longer than this is not read */

enum nfs_name_step {
    /* NFSv4 COMPOUND arguments (index: the operation's position) */
    NN_PUTFH = 1,   /* a: the handle */
    NN_PUTROOTFH,
    NN_PUTPUBFH,
    NN_LOOKUP,      /* a: the component */
    NN_LOOKUPP,
    NN_OPEN_NAME,   /* OPEN by name (CLAIM_NULL): a: the name */
    NN_OPEN_FH,     /* OPEN of the current handle (CLAIM_FH and friends) */
    NN_CREATE,      /* a: the object's name */
    NN_REMOVE,      /* a: the name */
    NN_RENAME,      /* a: old name (in the saved handle), b: new name (in the current one) */
    NN_SAVEFH,
    NN_RESTOREFH,
    NN_GETFH,
    NN_OTHER_FH,    /* another operation that changes the current handle to one we cannot tell */
    /* NFSv4 results (index: the result's position) */
    NN_FH,          /* GETFH's handle: a */
    NN_DIRENT,      /* a READDIR entry with FATTR4_FILEHANDLE: a name, b handle */
    /* NFSv3 and MOUNT */
    NN_V3_DIRENT,   /* READDIRPLUS entry with a handle: a name, b handle */
    NN_V3_RENAME_TO, /* RENAME's target: a directory handle, b name */
    NN_MNT_PATH,    /* MNT's directory path: a */
    NN_MNT_FH,      /* MNT's root handle: a */
};

struct nfs_name_fact {
    uint8_t step;   /* enum nfs_name_step */
    uint32_t index;
    const uint8_t *a;
    uint32_t alen;
    const uint8_t *b;
    uint32_t blen;
};

struct nfs_name_sink {
    /* decoding of t's call (reply false) or reply starts */
    void (*begin)(void *ctx, const struct ns_txn *t, bool reply);
    void (*fact)(void *ctx, const struct nfs_name_fact *f);
    void *ctx;
};

static inline void nfs_name_tell(const struct nfs_name_sink *s, uint8_t step, uint32_t index, const uint8_t *a,
                                 uint32_t alen, const uint8_t *b, uint32_t blen)
{
    struct nfs_name_fact f = {step, index, a, alen, b, blen};
    s->fact(s->ctx, &f);
}

#endif
