/* What the protocol decoders extract from NFS calls and replies. Plain data,
 * fixed size (no pointers), so transactions can be copied and kept. */
#ifndef NFSSCOPE_NFS_TYPES_H
#define NFSSCOPE_NFS_TYPES_H
#include <stdbool.h>
#include <stdint.h>

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

/* Operations recorded per COMPOUND: the first NS_OPS_INLINE inside the
 * transaction, the rest (up to NS_MAX_OPS) in a block of a bounded overflow
 * pool under the memory cap. Real clients send 2 to 20; conformance tests
 * about 100; 1024 is far above any, and a longer list is flagged as cut
 * (ops_cut / res_cut). Read them with ns_txn_op() / ns_txn_res() (txn.h). */
#define NS_OPS_INLINE 64
#define NS_MAX_OPS 1024
#define NS_TAG_MAX 64     /* bytes of a COMPOUND tag kept */
#define NS_FH_MAX 128     /* NFS4_FHSIZE; NFSv3 handles are at most 64 */
#define NS_OWNER_MAX 64   /* bytes of client owner / server owner / scope kept */
#define NS_NAME_MAX 64    /* bytes of a file name kept */
#define NS_SESSIONID_LEN 16

/* ---- NFSv4 ---- */

struct nfs4_chan_attrs {
    uint32_t headerpadsize;
    uint32_t maxrequestsize;
    uint32_t maxresponsesize;
    uint32_t maxresponsesize_cached;
    uint32_t maxoperations;
    uint32_t maxrequests;
    uint32_t rdma_ird_count; /* 0 or 1 */
};

struct nfs4_fh {
    uint8_t len; /* bytes kept (<= NS_FH_MAX); 0 = none */
    uint8_t data[NS_FH_MAX];
};

/* BIND_CONN_TO_SESSION arguments and results (the same XDR both ways). */
struct nfs4_bind_conn {
    uint8_t sessionid[NS_SESSIONID_LEN];
    uint32_t dir; /* CDFC4_FORE 1, CDFC4_BACK 2, CDFC4_FORE_OR_BOTH 3, CDFC4_BACK_OR_BOTH 7 */
    bool use_rdma;
};

/* SEQUENCE (or CB_SEQUENCE) arguments. */
struct nfs4_seq_args {
    uint8_t sessionid[NS_SESSIONID_LEN];
    uint32_t sequenceid;
    uint32_t slotid;
    uint32_t highest_slotid;
    bool cachethis;
};

/* SEQUENCE (or CB_SEQUENCE) results, valid when the op status is NFS4_OK. */
struct nfs4_seq_res {
    uint8_t sessionid[NS_SESSIONID_LEN];
    uint32_t sequenceid;
    uint32_t slotid;
    uint32_t highest_slotid;
    uint32_t target_highest_slotid;
    uint32_t status_flags; /* 0 for CB_SEQUENCE */
};

/* Arguments of the operations that set up clients and sessions. Each part is
 * valid when the matching has_* flag is set (first such op of the COMPOUND). */
struct nfs4_setup_args {
    bool has_exchange_id, has_create_session, has_bind_conn, has_destroy_session,
        has_destroy_clientid, has_reclaim_complete, has_setclientid;
    struct {
        uint8_t verifier[8];
        uint8_t owner_len; /* bytes kept */
        uint32_t owner_wire_len;
        uint8_t owner[NS_OWNER_MAX];
        uint32_t flags;
        uint32_t state_protect; /* SP4_NONE 0, SP4_MACH_CRED 1, SP4_SSV 2 */
    } exchange_id;
    struct {
        uint64_t clientid;
        uint32_t sequence;
        uint32_t flags;
        struct nfs4_chan_attrs fore, back;
        uint32_t cb_program;
    } create_session;
    struct nfs4_bind_conn bind_conn;
    uint8_t destroy_session_id[NS_SESSIONID_LEN];
    uint64_t destroy_clientid;
    bool reclaim_one_fs;
    /* NFSv4.0 client setup (RFC 7530 s.16.33, s.16.34). */
    struct {
        uint8_t verifier[8];
        uint8_t owner_len;       /* bytes kept of the nfs_client_id4 id */
        uint32_t owner_wire_len;
        uint8_t owner[NS_OWNER_MAX];
        uint32_t cb_program;
        uint32_t callback_ident;
    } setclientid;
    bool has_setclientid_confirm;
    struct {
        uint64_t clientid;
        uint8_t verifier[8];
    } setclientid_confirm;
};

/* Data-moving operations: the first READ / READ_PLUS / WRITE of a COMPOUND
 * (or the NFSv3 READ/WRITE/COMMIT), with the file handle current at that op. */
struct nfs_io_args {
    bool has_io;
    uint32_t op;      /* NFSv4 opcode, or NFSv3 procedure */
    uint64_t offset;
    uint32_t count;   /* bytes asked (READ) or sent (WRITE) */
    uint32_t stable;  /* WRITE: UNSTABLE 0, DATA_SYNC 1, FILE_SYNC 2 */
    struct nfs4_fh fh;
};

struct nfs4_call {
    uint32_t minor;         /* minorversion; for CB_COMPOUND too */
    uint32_t cb_ident;      /* CB_COMPOUND callback_ident */
    uint32_t tag_wire_len;
    uint8_t tag_len;        /* bytes kept */
    char tag[NS_TAG_MAX];   /* not NUL-terminated: use tag_len */
    uint32_t nops_wire;     /* numops as sent */
    uint16_t nops;          /* operations recorded (<= NS_MAX_OPS; past NS_OPS_INLINE in the overflow block) */
    uint16_t op[NS_OPS_INLINE];
    bool walk_complete;     /* every operation decoded to its end */
    bool unknown_op;        /* walk ended at an operation we do not know */
    uint32_t stopped_at_op; /* the opcode where the walk stopped, if not complete */
    bool has_seq;           /* first op is SEQUENCE (CB_SEQUENCE for callbacks) */
    bool seq_late;          /* a SEQUENCE after the first op (without has_seq, seq holds its arguments) */
    struct nfs4_seq_args seq;
    uint32_t nops_walked;   /* operations decoded to their end (recorded or not) */
    struct nfs4_setup_args setup;
    struct nfs_io_args io;
    bool ops_cut;           /* operations walked but not recorded (past NS_MAX_OPS, or no overflow block) */
};

struct nfs4_setup_res {
    bool has_exchange_id, has_create_session, has_bind_conn;
    struct {
        uint64_t clientid;
        uint32_t sequenceid;
        uint32_t flags;
        uint32_t state_protect;
        uint64_t server_minor_id;
        uint8_t server_major_len;
        uint8_t server_major[NS_OWNER_MAX];
        uint8_t scope_len;
        uint8_t scope[NS_OWNER_MAX];
    } exchange_id;
    struct {
        uint8_t sessionid[NS_SESSIONID_LEN];
        uint32_t sequence;
        uint32_t flags;
        struct nfs4_chan_attrs fore, back;
    } create_session;
    struct nfs4_bind_conn bind_conn;
    bool has_setclientid;      /* NFSv4.0 SETCLIENTID, NFS4_OK */
    struct {
        uint64_t clientid;
        uint8_t confirm[8];    /* setclientid_confirm verifier */
    } setclientid;
};

struct nfs_io_res {
    bool has_io;
    bool eof;
    uint32_t count;         /* bytes returned (READ) or written (WRITE) */
    uint32_t committed;     /* WRITE */
    /* READ_PLUS */
    uint32_t segments, data_segments, hole_segments;
    uint64_t data_bytes, hole_bytes;
};

struct nfs4_reply {
    uint32_t status;        /* COMPOUND status (status of the last op) */
    uint32_t tag_wire_len;
    uint8_t tag_len;
    char tag[NS_TAG_MAX];
    uint32_t nres_wire;
    uint16_t nres;
    uint16_t resop[NS_OPS_INLINE];
    uint32_t res_status[NS_OPS_INLINE];
    bool walk_complete;
    bool unknown_op;
    uint32_t stopped_at_op;
    bool has_seq;           /* first result is an NFS4_OK SEQUENCE/CB_SEQUENCE */
    struct nfs4_seq_res seq;
    uint32_t nres_walked;   /* results decoded to their end (recorded or not) */
    struct nfs4_setup_res setup;
    struct nfs_io_res io;
    bool res_cut;           /* results walked but not recorded (as ops_cut) */
};

/* API version 8 (ns_txn.state4): what an NFSv4 COMPOUND or CB_COMPOUND
 * says about delegations and the lease (RFC 8881 s.10.4, s.8.3). Call side:
 * the stateid of the first DELEGRETURN or CB_RECALL, else of the first
 * READ / WRITE / SETATTR / TEST_STATEID / FREE_STATEID; RENEW's client ID.
 * Reply side: the first OPEN (or WANT_DELEGATION) result's delegation, the
 * first GETATTR result's lease_time. */
struct nfs4_state_facts {
    uint32_t stateid_op;         /* opcode that named call_stateid (CB_RECALL in the callback numbering); 0 none */
    uint8_t call_stateid[16];    /* stateid4: seqid (4 bytes) + other (12) */
    bool has_renew;
    uint64_t renew_clientid;
    uint32_t deleg_type;         /* open_delegation4 type: 0 none, 1 READ, 2 WRITE, 3 NONE_EXT, 4/5 with attributes */
    uint8_t deleg_stateid[16];   /* with deleg_type 1, 2, 4, 5 */
    bool has_lease_time;
    uint32_t lease_time_s;       /* fattr4 lease_time */
};

/* Where a COMPOUND's operations past NS_OPS_INLINE are kept (opaque; read
 * through ns_txn_op() / ns_txn_res()). */
struct ns_ops_more;

/* ---- NFSv3 ---- */

struct nfs3_call {
    uint32_t proc;
    uint8_t fh_len;            /* first file handle argument, bytes kept */
    uint8_t fh[64];
    uint8_t name_len;          /* name argument (LOOKUP, CREATE, REMOVE, ...), bytes kept */
    char name[NS_NAME_MAX];
    struct nfs_io_args io;     /* READ, WRITE, COMMIT */
    bool walk_complete;
    uint32_t name_wire_len;    /* name length as sent (name_len < this: cut) */
};

struct nfs3_reply {
    uint32_t status;
    struct nfs_io_res io;      /* READ, WRITE, COMMIT */
    bool walk_complete;
    /* LOOKUP, and CREATE/MKDIR/SYMLINK/MKNOD when the server returned one:
     * the object's file handle, bytes kept (0 = none). */
    uint8_t obj_fh_len;
    uint8_t obj_fh[64];
    uint32_t dir_entries;      /* READDIR, READDIRPLUS: entries in this reply */
    bool dir_eof;              /* READDIR, READDIRPLUS: eof flag */
    bool has_verf;             /* WRITE, COMMIT (NFS3_OK): write verifier */
    uint8_t verf[8];
};

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
