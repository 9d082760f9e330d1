/* Names of ONC RPC programs, procedures, auth flavors, NFSv3 and MOUNT v3
 * status codes (RFC 5531, RFC 1813, RFC 1094, RFC 1833, RFC 7530). Spelling
 * follows the RFCs and tshark's value strings. The NFSv4 names live in
 * names_nfs4.c. */
#include "names_int.h"
#include "nfsscope/names.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#define UNKNOWN "UNKNOWN"

const char *names_unknown_number(uint32_t v)
{
    /* no thread-local storage in the core (it loads into Wireshark): each
     * caller takes its own slot with an atomic counter */
    static char ring[256][24];
    static _Atomic unsigned next;
    char *b = ring[atomic_fetch_add(&next, 1u) % 256u];
    snprintf(b, sizeof ring[0], "UNKNOWN(%" PRIu32 ")", v);
    return b;
}
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

#define PROG_PORTMAP 100000u
#define PROG_NFS 100003u
#define PROG_MOUNT 100005u
#define PROG_RQUOTA 100011u
#define PROG_NLM 100021u
#define PROG_NSM 100024u
#define PROG_NFS_ACL 100227u
/* NFSv4 callback programs are chosen by the client (RFC 7530 sec. 16.33,
 * RFC 8881 CREATE_SESSION csa_cb_program) from the transient range. */
#define PROG_TRANSIENT_FIRST 0x40000000u
#define PROG_TRANSIENT_LAST 0x5fffffffu

static const char *lookup(const char *const *tab, size_t n, uint32_t i)
{
    return i < n && tab[i] ? tab[i] : UNKNOWN;
}

static const char *const nfs3_procs[] = {
    "NULL",   "GETATTR", "SETATTR", "LOOKUP",  "ACCESS",      "READLINK",
    "READ",   "WRITE",   "CREATE",  "MKDIR",   "SYMLINK",     "MKNOD",
    "REMOVE", "RMDIR",   "RENAME",  "LINK",    "READDIR",     "READDIRPLUS",
    "FSSTAT", "FSINFO",  "PATHCONF", "COMMIT",
};

static const char *const nfs2_procs[] = {
    "NULL",   "GETATTR", "SETATTR", "ROOT",   "LOOKUP", "READLINK",
    "READ",   "WRITECACHE", "WRITE", "CREATE", "REMOVE", "RENAME",
    "LINK",   "SYMLINK", "MKDIR",   "RMDIR",  "READDIR", "STATFS",
};

static const char *const nfs4_procs[] = {"NULL", "COMPOUND"};
static const char *const nfs_cb_procs[] = {"CB_NULL", "CB_COMPOUND"};

/* MOUNT v1 (RFC 1094 appendix A) has EXPORTALL, v2 adds PATHCONF, v3
 * (RFC 1813 appendix I) has neither. */
static const char *const mount_procs[] = {
    "NULL", "MNT", "DUMP", "UMNT", "UMNTALL", "EXPORT", "EXPORTALL", "PATHCONF",
};

static const char *const pmap2_procs[] = {"NULL", "SET", "UNSET", "GETPORT", "DUMP", "CALLIT"};
static const char *const rpcb3_procs[] = {
    "NULL", "SET", "UNSET", "GETADDR", "DUMP", "CALLIT", "GETTIME", "UADDR2TADDR", "TADDR2UADDR",
};
static const char *const rpcb4_procs[] = {
    "NULL",    "SET",         "UNSET",       "GETADDR",     "DUMP",     "BCAST",    "GETTIME",
    "UADDR2TADDR", "TADDR2UADDR", "GETVERSADDR", "INDIRECT", "GETADDRLIST", "GETSTAT",
};

const char *ns_nfs3_proc_name(uint32_t proc)
{
    return lookup(nfs3_procs, NELEM(nfs3_procs), proc);
}

const char *ns_nfs3_status_name(uint32_t st)
{
    switch (st) {
    case 0: return "NFS3_OK";
    case 1: return "NFS3ERR_PERM";
    case 2: return "NFS3ERR_NOENT";
    case 5: return "NFS3ERR_IO";
    case 6: return "NFS3ERR_NXIO";
    case 13: return "NFS3ERR_ACCES";
    case 17: return "NFS3ERR_EXIST";
    case 18: return "NFS3ERR_XDEV";
    case 19: return "NFS3ERR_NODEV";
    case 20: return "NFS3ERR_NOTDIR";
    case 21: return "NFS3ERR_ISDIR";
    case 22: return "NFS3ERR_INVAL";
    case 27: return "NFS3ERR_FBIG";
    case 28: return "NFS3ERR_NOSPC";
    case 30: return "NFS3ERR_ROFS";
    case 31: return "NFS3ERR_MLINK";
    case 63: return "NFS3ERR_NAMETOOLONG";
    case 66: return "NFS3ERR_NOTEMPTY";
    case 69: return "NFS3ERR_DQUOT";
    case 70: return "NFS3ERR_STALE";
    case 71: return "NFS3ERR_REMOTE";
    case 10001: return "NFS3ERR_BADHANDLE";
    case 10002: return "NFS3ERR_NOT_SYNC";
    case 10003: return "NFS3ERR_BAD_COOKIE";
    case 10004: return "NFS3ERR_NOTSUPP";
    case 10005: return "NFS3ERR_TOOSMALL";
    case 10006: return "NFS3ERR_SERVERFAULT";
    case 10007: return "NFS3ERR_BADTYPE";
    case 10008: return "NFS3ERR_JUKEBOX";
    default: return names_unknown_number(st);
    }
}

static bool is_callback_prog(uint32_t prog)
{
    return prog >= PROG_TRANSIENT_FIRST && prog <= PROG_TRANSIENT_LAST;
}

const char *ns_rpc_prog_name(uint32_t prog)
{
    switch (prog) {
    case PROG_PORTMAP: return "PORTMAP";
    case PROG_NFS: return "NFS";
    case PROG_MOUNT: return "MOUNT";
    case PROG_RQUOTA: return "RQUOTA";
    case PROG_NLM: return "NLM";
    case PROG_NSM: return "NSM";
    case PROG_NFS_ACL: return "NFS_ACL";
    default: return is_callback_prog(prog) ? "NFS_CB" : UNKNOWN;
    }
}

const char *ns_rpc_proc_name(uint32_t prog, uint32_t vers, uint32_t proc)
{
    switch (prog) {
    case PROG_NFS:
        if (vers == 2) return lookup(nfs2_procs, NELEM(nfs2_procs), proc);
        if (vers == 3) return lookup(nfs3_procs, NELEM(nfs3_procs), proc);
        if (vers == 4) return lookup(nfs4_procs, NELEM(nfs4_procs), proc);
        return UNKNOWN;
    case PROG_MOUNT:
        if (vers == 1) return lookup(mount_procs, 7, proc);
        if (vers == 2) return lookup(mount_procs, 8, proc);
        if (vers == 3) return lookup(mount_procs, 6, proc);
        return UNKNOWN;
    case PROG_PORTMAP:
        if (vers == 2) return lookup(pmap2_procs, NELEM(pmap2_procs), proc);
        if (vers == 3) return lookup(rpcb3_procs, NELEM(rpcb3_procs), proc);
        if (vers == 4) return lookup(rpcb4_procs, NELEM(rpcb4_procs), proc);
        return UNKNOWN;
    default:
        if (is_callback_prog(prog)) return lookup(nfs_cb_procs, NELEM(nfs_cb_procs), proc);
        return UNKNOWN;
    }
}

const char *ns_auth_flavor_name(uint32_t flavor)
{
    switch (flavor) {
    case 0: return "AUTH_NONE";
    case 1: return "AUTH_SYS";
    case 2: return "AUTH_SHORT";
    case 3: return "AUTH_DH";
    case 4: return "AUTH_KERB";
    case 5: return "AUTH_RSA";
    case 6: return "RPCSEC_GSS";
    case 7: return "AUTH_TLS";
    /* pseudo-flavors (RFC 2623), seen in MNT replies and SECINFO */
    case 390003: return "RPCSEC_GSS_KRB5";
    case 390004: return "RPCSEC_GSS_KRB5I";
    case 390005: return "RPCSEC_GSS_KRB5P";
    default: return UNKNOWN;
    }
}

const char *ns_mount3_status_name(uint32_t st)
{
    switch (st) {
    case 0: return "MNT3_OK";
    case 1: return "MNT3ERR_PERM";
    case 2: return "MNT3ERR_NOENT";
    case 5: return "MNT3ERR_IO";
    case 13: return "MNT3ERR_ACCES";
    case 20: return "MNT3ERR_NOTDIR";
    case 22: return "MNT3ERR_INVAL";
    case 63: return "MNT3ERR_NAMETOOLONG";
    case 10004: return "MNT3ERR_NOTSUPP";
    case 10006: return "MNT3ERR_SERVERFAULT";
    default: return names_unknown_number(st);
    }
}
