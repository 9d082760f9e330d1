/* Test-only: one valid encoding of the arguments and of the NFS4_OK result
 * of every NFSv4.x operation (RFC 8881 s.18, RFC 7862 s.15, RFC 8276 s.8)
 * and callback operation (RFC 8881 s.20, RFC 7862 s.16), written from the
 * RFC XDR. Used to walk compounds that contain every operation. */
#ifndef NFSSCOPE_NFS4_BUILD_H
#define NFSSCOPE_NFS4_BUILD_H
#include "xdr_build.h"

/* Encode the opcode and a valid argument body; false if op is unknown here. */
static inline bool xb_op_args(struct xb *b, uint32_t op)
{
    const uint32_t bm[2] = {0x18, 0x300};
    xb_u32(b, op);
    switch (op) {
    case 3: xb_u32(b, 0x3f); break;                               /* ACCESS */
    case 4: xb_u32(b, 1); xb_stateid(b, 1); break;                /* CLOSE */
    case 5: xb_u64(b, 0); xb_u32(b, 0); break;                    /* COMMIT */
    case 6: xb_u32(b, 5); xb_str(b, "target"); xb_str(b, "lnk"); xb_fattr(b); break; /* CREATE symlink */
    case 7: xb_u64(b, 7); break;                                  /* DELEGPURGE */
    case 8: xb_stateid(b, 2); break;                              /* DELEGRETURN */
    case 9: xb_bitmap(b, 2, bm); break;                           /* GETATTR */
    case 10: break;                                               /* GETFH */
    case 11: xb_str(b, "newlink"); break;                         /* LINK */
    case 12:                                                      /* LOCK, new owner */
        xb_u32(b, 2); xb_bool(b, false); xb_u64(b, 0); xb_u64(b, 100);
        xb_bool(b, true); xb_u32(b, 1); xb_stateid(b, 1); xb_u32(b, 0); xb_owner(b, 9, "lo");
        break;
    case 13: xb_u32(b, 1); xb_u64(b, 0); xb_u64(b, 1); xb_owner(b, 9, "lo"); break; /* LOCKT */
    case 14: xb_u32(b, 2); xb_u32(b, 3); xb_stateid(b, 4); xb_u64(b, 0); xb_u64(b, 1); break;
    case 15: xb_str(b, "name"); break;                            /* LOOKUP */
    case 16: break;                                               /* LOOKUPP */
    case 17: xb_fattr(b); break;                                  /* NVERIFY */
    case 18:                                                      /* OPEN, CLAIM_NULL nocreate */
        xb_u32(b, 0); xb_u32(b, 1); xb_u32(b, 0); xb_owner(b, 9, "open-owner");
        xb_u32(b, 0); xb_u32(b, 0); xb_str(b, "file");
        break;
    case 19: xb_bool(b, true); break;                             /* OPENATTR */
    case 20: xb_stateid(b, 1); xb_u32(b, 2); break;               /* OPEN_CONFIRM */
    case 21: xb_stateid(b, 1); xb_u32(b, 2); xb_u32(b, 1); xb_u32(b, 0); break;
    case 22: xb_fh(b, 28, 0x11); break;                           /* PUTFH */
    case 23: case 24: break;                                      /* PUTPUBFH, PUTROOTFH */
    case 25: xb_stateid(b, 0); xb_u64(b, 0); xb_u32(b, 4096); break; /* READ */
    case 26:                                                      /* READDIR */
        xb_u64(b, 0); xb_zeros(b, 8); xb_u32(b, 4096); xb_u32(b, 32768); xb_bitmap(b, 2, bm);
        break;
    case 27: break;                                               /* READLINK */
    case 28: xb_str(b, "gone"); break;                            /* REMOVE */
    case 29: xb_str(b, "old"); xb_str(b, "new"); break;           /* RENAME */
    case 30: xb_u64(b, 77); break;                                /* RENEW */
    case 31: case 32: break;                                      /* RESTOREFH, SAVEFH */
    case 33: xb_str(b, "dir"); break;                             /* SECINFO */
    case 34: xb_stateid(b, 0); xb_fattr(b); break;                /* SETATTR */
    case 35:                                                      /* SETCLIENTID */
        xb_zeros(b, 8); xb_str(b, "Linux NFSv4.0 host"); xb_u32(b, 0x40000000);
        xb_str(b, "tcp"); xb_str(b, "10.0.0.1.3.7"); xb_u32(b, 1);
        break;
    case 36: xb_u64(b, 77); xb_zeros(b, 8); break;                /* SETCLIENTID_CONFIRM */
    case 37: xb_fattr(b); break;                                  /* VERIFY */
    case 38: xb_stateid(b, 0); xb_u64(b, 0); xb_u32(b, 2); xb_filled(b, 10, 0x77); break;
    case 39: xb_owner(b, 9, "lo"); break;                         /* RELEASE_LOCKOWNER */
    case 40: xb_u32(b, 0x40000000); xb_u32(b, 1); xb_u32(b, 0); break; /* BACKCHANNEL_CTL */
    case 41: xb_sessionid(b, 1); xb_u32(b, 3); xb_bool(b, false); break;
    case 42:                                                      /* EXCHANGE_ID */
        xb_zeros(b, 8); xb_str(b, "owner"); xb_u32(b, 0x101); xb_u32(b, 0); xb_u32(b, 0);
        break;
    case 43:                                                      /* CREATE_SESSION */
        xb_u64(b, 1); xb_u32(b, 1); xb_u32(b, 0);
        for (int k = 0; k < 2; k++) { xb_zeros(b, 24); xb_u32(b, 0); }
        xb_u32(b, 0x40000000); xb_u32(b, 0);
        break;
    case 44: xb_sessionid(b, 1); break;                           /* DESTROY_SESSION */
    case 45: xb_stateid(b, 3); break;                             /* FREE_STATEID */
    case 46:                                                      /* GET_DIR_DELEGATION */
        xb_bool(b, false); xb_bitmap(b, 2, bm); xb_nfstime(b); xb_nfstime(b);
        xb_bitmap(b, 2, bm); xb_bitmap(b, 2, bm);
        break;
    case 47: xb_zeros(b, 16); xb_u32(b, 1); xb_u32(b, 4096); xb_bitmap(b, 1, bm); break;
    case 48: xb_u32(b, 1); xb_u32(b, 16); xb_u64(b, 0); xb_zeros(b, 8); break;
    case 49:                                                      /* LAYOUTCOMMIT */
        xb_u64(b, 0); xb_u64(b, 4096); xb_bool(b, false); xb_stateid(b, 1);
        xb_bool(b, true); xb_u64(b, 4095); xb_bool(b, true); xb_nfstime(b);
        xb_u32(b, 1); xb_filled(b, 5, 1);
        break;
    case 50:                                                      /* LAYOUTGET */
        xb_bool(b, false); xb_u32(b, 1); xb_u32(b, 2); xb_u64(b, 0); xb_u64(b, ~0ULL);
        xb_u64(b, 0); xb_stateid(b, 1); xb_u32(b, 4096);
        break;
    case 51:                                                      /* LAYOUTRETURN file */
        xb_bool(b, false); xb_u32(b, 1); xb_u32(b, 3); xb_u32(b, 1);
        xb_u64(b, 0); xb_u64(b, ~0ULL); xb_stateid(b, 1); xb_filled(b, 3, 2);
        break;
    case 52: xb_u32(b, 1); break;                                 /* SECINFO_NO_NAME */
    case 53: xb_seq_args(b, 1, 1, 0, 0, false); break;            /* SEQUENCE */
    case 54: xb_filled(b, 32, 3); xb_filled(b, 20, 4); break;     /* SET_SSV */
    case 55: xb_u32(b, 2); xb_stateid(b, 1); xb_stateid(b, 2); break; /* TEST_STATEID */
    case 56: xb_u32(b, 0x300); xb_u32(b, 1); xb_u32(b, 1); break; /* WANT_DELEG, CLAIM_PREVIOUS */
    case 57: xb_u64(b, 5); break;                                 /* DESTROY_CLIENTID */
    case 58: xb_bool(b, false); break;                            /* RECLAIM_COMPLETE */
    case 59: case 62: xb_stateid(b, 1); xb_u64(b, 0); xb_u64(b, 1 << 20); break;
    case 60:                                                      /* COPY, one netloc */
        xb_stateid(b, 1); xb_stateid(b, 2); xb_u64(b, 0); xb_u64(b, 0); xb_u64(b, 1 << 20);
        xb_bool(b, true); xb_bool(b, false); xb_u32(b, 1); xb_u32(b, 3);
        xb_str(b, "tcp"); xb_str(b, "10.0.0.2.8.1");
        break;
    case 61: xb_stateid(b, 1); xb_u32(b, 1); xb_str(b, "server.example"); break; /* COPY_NOTIFY */
    case 63: xb_stateid(b, 1); xb_u64(b, 0); xb_u64(b, 100); xb_bitmap(b, 1, bm); break;
    case 64:                                                      /* LAYOUTERROR */
        xb_u64(b, 0); xb_u64(b, 10); xb_stateid(b, 1); xb_u32(b, 1);
        xb_zeros(b, 16); xb_u32(b, 10008); xb_u32(b, 25);
        break;
    case 65:                                                      /* LAYOUTSTATS */
        xb_u64(b, 0); xb_u64(b, 10); xb_stateid(b, 1); xb_zeros(b, 32); xb_zeros(b, 16);
        xb_u32(b, 1); xb_filled(b, 6, 9);
        break;
    case 66: case 67: xb_stateid(b, 5); break;                    /* OFFLOAD_CANCEL/STATUS */
    case 68: xb_stateid(b, 0); xb_u64(b, 0); xb_u32(b, 8192); break; /* READ_PLUS */
    case 69: xb_stateid(b, 0); xb_u64(b, 0); xb_u32(b, 1); break; /* SEEK */
    case 70:                                                      /* WRITE_SAME */
        xb_stateid(b, 0); xb_u32(b, 0);
        xb_u64(b, 0); xb_u64(b, 512); xb_u64(b, 8); xb_u64(b, 0); xb_u32(b, 0); xb_u64(b, 0);
        xb_filled(b, 4, 0xee);
        break;
    case 71: xb_stateid(b, 1); xb_stateid(b, 2); xb_u64(b, 0); xb_u64(b, 0); xb_u64(b, 0); break;
    case 72: case 75: xb_str(b, "user.a"); break;                 /* GETXATTR, REMOVEXATTR */
    case 73: xb_u32(b, 1); xb_str(b, "user.a"); xb_filled(b, 3, 1); break; /* SETXATTR */
    case 74: xb_u64(b, 0); xb_u32(b, 1024); break;                /* LISTXATTRS */
    case 10044: break;                                            /* ILLEGAL */
    default: return false;
    }
    return true;
}

/* Encode the opcode, NFS4_OK and a valid result body. */
static inline bool xb_op_res(struct xb *b, uint32_t op)
{
    const uint32_t bm[2] = {0x18, 0x300};
    xb_u32(b, op);
    xb_u32(b, op == 10044 ? 10044 : 0);
    switch (op) {
    case 3: xb_u32(b, 0x3f); xb_u32(b, 0x1f); break;
    case 4: case 14: case 20: case 21: case 12: xb_stateid(b, 2); break;
    case 5: xb_zeros(b, 8); break;
    case 6: xb_change_info(b); xb_bitmap(b, 2, bm); break;
    case 9: xb_fattr(b); break;
    case 10: xb_fh(b, 36, 0x22); break;
    case 11: case 28: case 73: case 75: xb_change_info(b); break;
    case 29: xb_change_info(b); xb_change_info(b); break;
    case 18:                                                      /* OPEN, no delegation */
        xb_stateid(b, 1); xb_change_info(b); xb_u32(b, 4); xb_bitmap(b, 0, NULL); xb_u32(b, 0);
        break;
    case 26:                                                      /* READDIR, 1 entry */
        xb_zeros(b, 8); xb_bool(b, true); xb_u64(b, 3); xb_str(b, "a"); xb_fattr(b);
        xb_bool(b, false); xb_bool(b, true);
        break;
    case 27: xb_str(b, "/target"); break;
    case 33: case 52:                                             /* SECINFO: krb5 + sys */
        xb_u32(b, 2); xb_u32(b, 6); xb_filled(b, 9, 0x2a); xb_u32(b, 0); xb_u32(b, 1);
        xb_u32(b, 1);
        break;
    case 34: xb_bitmap(b, 2, bm); break;
    case 35: xb_u64(b, 77); xb_zeros(b, 8); break;
    case 38: xb_u32(b, 10); xb_u32(b, 2); xb_zeros(b, 8); break;
    case 41: xb_sessionid(b, 1); xb_u32(b, 3); xb_bool(b, false); break;
    case 42:
        xb_u64(b, 5); xb_u32(b, 1); xb_u32(b, 0x20000); xb_u32(b, 0);
        xb_u64(b, 1); xb_str(b, "major"); xb_str(b, "scope"); xb_u32(b, 0);
        break;
    case 43:
        xb_sessionid(b, 1); xb_u32(b, 1); xb_u32(b, 0);
        for (int k = 0; k < 2; k++) { xb_zeros(b, 24); xb_u32(b, 0); }
        break;
    case 46:                                                      /* GDD4_OK */
        xb_u32(b, 0); xb_zeros(b, 8); xb_stateid(b, 1);
        xb_bitmap(b, 1, bm); xb_bitmap(b, 1, bm); xb_bitmap(b, 1, bm);
        break;
    case 47: xb_u32(b, 1); xb_filled(b, 40, 5); xb_bitmap(b, 0, NULL); break;
    case 48: xb_u64(b, 0); xb_zeros(b, 8); xb_u32(b, 2); xb_zeros(b, 32); xb_bool(b, true); break;
    case 49: xb_bool(b, true); xb_u64(b, 8192); break;
    case 50:                                                      /* LAYOUTGET, 1 layout */
        xb_bool(b, true); xb_stateid(b, 1); xb_u32(b, 1);
        xb_u64(b, 0); xb_u64(b, ~0ULL); xb_u32(b, 2); xb_u32(b, 1); xb_filled(b, 44, 6);
        break;
    case 51: xb_bool(b, true); xb_stateid(b, 2); break;
    case 53:
        xb_sessionid(b, 1); xb_u32(b, 1); xb_u32(b, 0); xb_u32(b, 63); xb_u32(b, 63); xb_u32(b, 0);
        break;
    case 54: xb_filled(b, 20, 4); break;
    case 55: xb_u32(b, 2); xb_u32(b, 0); xb_u32(b, 10025); break;
    case 56: xb_u32(b, 3); xb_u32(b, 0); break;                   /* NONE_EXT, NOT_WANTED */
    case 60:                                                      /* COPY */
        xb_u32(b, 0); xb_u64(b, 1 << 20); xb_u32(b, 2); xb_zeros(b, 8); xb_bool(b, true);
        xb_bool(b, true);
        break;
    case 61: xb_nfstime(b); xb_stateid(b, 1); xb_u32(b, 1); xb_u32(b, 2); xb_str(b, "nfs://s/"); break;
    case 63: xb_bitmap(b, 1, bm); break;
    case 67: xb_u64(b, 4096); xb_u32(b, 1); xb_u32(b, 0); break;
    case 68: xb_bool(b, true); xb_u32(b, 1); xb_u32(b, 1); xb_u64(b, 0); xb_u64(b, 8192); break;
    case 69: xb_bool(b, false); xb_u64(b, 65536); break;
    case 70: xb_u32(b, 1); xb_stateid(b, 8); xb_u64(b, 4096); xb_u32(b, 0); xb_zeros(b, 8); break;
    case 72: xb_filled(b, 5, 1); break;
    case 74: xb_u64(b, 0); xb_u32(b, 2); xb_str(b, "user.a"); xb_str(b, "user.b"); xb_bool(b, true); break;
    case 25: xb_bool(b, false); xb_filled(b, 13, 0x55); break;
    case 7: case 8: case 13: case 15: case 16: case 17: case 19: case 22: case 23: case 24:
    case 30: case 31: case 32: case 36: case 37: case 39: case 40: case 44: case 45: case 57:
    case 58: case 59: case 62: case 64: case 65: case 66: case 71: case 10044:
        break;
    default: return false;
    }
    return true;
}

/* Callback operations 3..15. */
static inline bool xb_cb_op_args(struct xb *b, uint32_t op)
{
    const uint32_t bm[1] = {0x3};
    xb_u32(b, op);
    switch (op) {
    case 3: xb_fh(b, 20, 1); xb_bitmap(b, 1, bm); break;          /* CB_GETATTR */
    case 4: xb_stateid(b, 1); xb_bool(b, false); xb_fh(b, 20, 1); break; /* CB_RECALL */
    case 5:                                                       /* CB_LAYOUTRECALL file */
        xb_u32(b, 1); xb_u32(b, 3); xb_bool(b, true); xb_u32(b, 1);
        xb_fh(b, 20, 1); xb_u64(b, 0); xb_u64(b, ~0ULL); xb_stateid(b, 1);
        break;
    case 6:                                                       /* CB_NOTIFY, 1 change */
        xb_stateid(b, 1); xb_fh(b, 20, 1); xb_u32(b, 1); xb_bitmap(b, 1, bm); xb_filled(b, 24, 3);
        break;
    case 7: xb_fh(b, 20, 1); xb_u32(b, 1); xb_stateid(b, 1); xb_bool(b, false);
        xb_u32(b, 0); xb_u32(b, 0); xb_u32(b, 0); xb_str(b, "EVERYONE@"); break; /* CB_PUSH_DELEG */
    case 8: case 9: xb_u32(b, 10); xb_bitmap(b, 1, bm); break;    /* CB_RECALL_ANY / OBJ_AVAIL */
    case 10: xb_u32(b, 7); break;                                 /* CB_RECALL_SLOT */
    case 11:                                                      /* CB_SEQUENCE, 1 list of 2 */
        xb_seq_args(b, 2, 9, 0, 0, false); xb_u32(b, 1); xb_sessionid(b, 1); xb_u32(b, 2);
        xb_u32(b, 5); xb_u32(b, 0); xb_u32(b, 6); xb_u32(b, 1);
        break;
    case 12: xb_bool(b, true); xb_bool(b, false); break;          /* CB_WANTS_CANCELLED */
    case 13: xb_fh(b, 20, 1); xb_owner(b, 9, "lo"); break;        /* CB_NOTIFY_LOCK */
    case 14: xb_u32(b, 1); xb_bitmap(b, 1, bm); xb_filled(b, 24, 3); break; /* CB_NOTIFY_DEVICEID */
    case 15:                                                      /* CB_OFFLOAD, OK */
        xb_fh(b, 20, 1); xb_stateid(b, 1); xb_u32(b, 0);
        xb_u32(b, 0); xb_u64(b, 1 << 20); xb_u32(b, 2); xb_zeros(b, 8);
        break;
    case 10044: break;
    default: return false;
    }
    return true;
}

static inline bool xb_cb_op_res(struct xb *b, uint32_t op)
{
    xb_u32(b, op);
    xb_u32(b, op == 10044 ? 10044 : 0);
    switch (op) {
    case 3: xb_fattr(b); break;
    case 11: xb_sessionid(b, 2); xb_u32(b, 9); xb_u32(b, 0); xb_u32(b, 3); xb_u32(b, 3); break;
    case 4: case 5: case 6: case 7: case 8: case 9: case 10: case 12: case 13: case 14: case 15:
    case 10044:
        break;
    default: return false;
    }
    return true;
}

#endif
