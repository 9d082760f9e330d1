/* MOUNT v3 (RFC 1813 appendix I) and v1/v2 (RFC 1094 appendix A) decoding
 * with the bounded reader. */
#include "mount_decode.h"

#include <string.h>

#define MNTPATHLEN 1024u
#define MNTNAMLEN 255u
#define FHSIZE3 64u
#define FHSIZE 32u /* MOUNT v1/v2: fhandle, fixed 32 bytes */
#define MOUNTPROC_EXPORTALL 6
#define MOUNTPROC_PATHCONF 7 /* v2 */

int mount3_decode_call(struct xdr *x, uint32_t proc, struct mount3_call *out)
{
    memset(out, 0, sizeof *out);
    out->proc = proc;
    switch (proc) {
    case MOUNTPROC3_NULL:
    case MOUNTPROC3_DUMP:
    case MOUNTPROC3_UMNTALL:
    case MOUNTPROC3_EXPORT:
        break;
    case MOUNTPROC3_MNT:
    case MOUNTPROC3_UMNT: {
        uint32_t n = xdr_opaque(x, (uint8_t *)out->path, MOUNT3_PATH_KEEP, MNTPATHLEN);
        if (!xdr_ok(x)) break;
        out->path_wire_len = n;
        out->path_len = (uint16_t)(n < MOUNT3_PATH_KEEP ? n : MOUNT3_PATH_KEEP);
        break;
    }
    default:
        return -1;
    }
    return xdr_ok(x) ? 0 : -2;
}

/* Lists are linked (value_follows before each item); a walk is bounded by the
 * bytes that remain: every item takes at least min_item bytes, so no more
 * than this many items can follow. */
static uint32_t list_limit(const struct xdr *x, uint32_t min_item)
{
    return xdr_remaining(x) / min_item;
}

static void mountlist(struct xdr *x, struct mount3_reply *out)
{
    uint32_t limit = list_limit(x, 4 + 4 + 4); /* follows, hostname, directory */
    uint32_t n = 0;
    while (xdr_bool(x)) {
        if (n++ >= limit) { xdr_fail(x, XDR_ERR_BAD); return; }
        xdr_skip_opaque(x, MNTNAMLEN);  /* ml_hostname */
        xdr_skip_opaque(x, MNTPATHLEN); /* ml_directory */
    }
    out->entries = n;
}

static void exports(struct xdr *x, struct mount3_reply *out)
{
    uint32_t limit = list_limit(x, 4 + 4 + 4); /* follows, ex_dir, empty groups */
    uint32_t n = 0;
    while (xdr_bool(x)) {
        if (n++ >= limit) { xdr_fail(x, XDR_ERR_BAD); return; }
        xdr_skip_opaque(x, MNTPATHLEN); /* ex_dir */
        uint32_t glimit = list_limit(x, 4 + 4);
        uint32_t g = 0;
        while (xdr_bool(x)) {
            if (g++ >= glimit) { xdr_fail(x, XDR_ERR_BAD); return; }
            xdr_skip_opaque(x, MNTNAMLEN); /* gr_name */
        }
    }
    out->entries = n;
}

static void mnt_reply(struct xdr *x, struct mount3_reply *out)
{
    out->status = xdr_u32(x);
    if (!xdr_ok(x) || out->status != 0) return;
    uint32_t fl = xdr_opaque(x, out->fh, FHSIZE3, FHSIZE3);
    if (!xdr_ok(x)) return;
    out->fh_len = (uint8_t)fl;
    uint32_t n = xdr_count(x, 4);
    out->nflavors_wire = n;
    for (uint32_t i = 0; i < n && xdr_ok(x); i++) {
        uint32_t f = xdr_u32(x);
        if (xdr_ok(x) && out->nflavors < MOUNT3_FLAVORS_KEEP) out->flavors[out->nflavors++] = f;
    }
}

int mount3_decode_reply(struct xdr *x, uint32_t proc, struct mount3_reply *out)
{
    memset(out, 0, sizeof *out);
    out->proc = proc;
    switch (proc) {
    case MOUNTPROC3_NULL:
    case MOUNTPROC3_UMNT:
    case MOUNTPROC3_UMNTALL:
        break;
    case MOUNTPROC3_MNT:
        mnt_reply(x, out);
        break;
    case MOUNTPROC3_DUMP:
        mountlist(x, out);
        break;
    case MOUNTPROC3_EXPORT:
        exports(x, out);
        break;
    default:
        return -1;
    }
    if (!xdr_ok(x)) return -2;
    out->walk_complete = true;
    return 0;
}

/* MOUNT v1/v2: the same procedures as v3 (EXPORTALL, and PATHCONF in v2,
 * added), but MNT answers an fhstatus: a status then, when 0, a fixed
 * 32-byte handle and no flavors. */
int mount_decode_call(struct xdr *x, uint32_t vers, uint32_t proc, struct mount3_call *out)
{
    if (vers >= 3) return mount3_decode_call(x, proc, out);
    if (proc == MOUNTPROC_EXPORTALL) { memset(out, 0, sizeof *out); out->proc = proc; return 0; }
    if (proc == MOUNTPROC_PATHCONF && vers == 2) proc = MOUNTPROC3_MNT; /* a dirpath, as MNT */
    int rc = mount3_decode_call(x, proc, out);
    return rc;
}

int mount_decode_reply(struct xdr *x, uint32_t vers, uint32_t proc, struct mount3_reply *out)
{
    if (vers >= 3) return mount3_decode_reply(x, proc, out);
    memset(out, 0, sizeof *out);
    out->proc = proc;
    switch (proc) {
    case MOUNTPROC3_NULL:
    case MOUNTPROC3_UMNT:
    case MOUNTPROC3_UMNTALL:
        break;
    case MOUNTPROC3_MNT:
        out->status = xdr_u32(x);
        if (xdr_ok(x) && out->status == 0) {
            xdr_bytes(x, out->fh, FHSIZE);
            if (xdr_ok(x)) out->fh_len = FHSIZE;
        }
        break;
    case MOUNTPROC3_DUMP:
        mountlist(x, out);
        break;
    case MOUNTPROC3_EXPORT:
    case MOUNTPROC_EXPORTALL:
        exports(x, out);
        break;
    case MOUNTPROC_PATHCONF: /* v2: ppathcnf, ten XDR words */
        if (vers != 2) return -1;
        for (int i = 0; i < 10; i++) xdr_u32(x);
        break;
    default:
        return -1;
    }
    if (!xdr_ok(x)) return -2;
    out->walk_complete = true;
    return 0;
}
