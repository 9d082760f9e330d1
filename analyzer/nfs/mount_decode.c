/* MOUNT v3 (RFC 1813 appendix I) decoding with the bounded reader. */
#include "mount_decode.h"

#include <string.h>

#define MNTPATHLEN 1024u
#define MNTNAMLEN 255u
#define FHSIZE3 64u

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
