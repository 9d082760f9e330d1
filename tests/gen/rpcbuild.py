"""ONC RPC (RFC 5531), RPCSEC_GSS (RFC 2203), record marking, XDR, and
NFSv3 (RFC 1813) / NFSv4.x (RFC 7530, 8881, 7862) argument and result
builders.

Every builder returns bytes plus, where it matters, an `info` dict holding
what a correct decoder must report in the transaction log (doc/txn-log.md):
the generator derives its expected results from these, never from an
analyzer.

    args = nfs3_call("READ", nfs3_read_args(fh, 0, 4096))
    call = rpc_call(xid, args, cred=auth_sys())
    res  = nfs3_res("READ", "NFS3_OK", nfs3_read_res_ok(data, eof=True))
    rep  = rpc_reply(call, res)
    rec  = record(call.data, frags=[40, 60])   # multi-fragment record
"""
import struct

# ===================================================================== XDR

def u32(v):
    return struct.pack(">I", v & 0xFFFFFFFF)


def i32(v):
    return struct.pack(">i", v)


def u64(v):
    return struct.pack(">Q", v & 0xFFFFFFFFFFFFFFFF)


def i64(v):
    return struct.pack(">q", v)


def boolean(v):
    return u32(1 if v else 0)


def pad(b):
    return b"\0" * (-len(b) % 4)


def fopaque(b):
    """Fixed-length opaque."""
    return bytes(b) + pad(b)


def opaque(b):
    """Variable-length opaque<>."""
    b = bytes(b)
    return u32(len(b)) + b + pad(b)


def string(s):
    return opaque(s.encode() if isinstance(s, str) else s)


def array(items, enc=lambda x: x):
    return u32(len(items)) + b"".join(enc(i) for i in items)


def optional(v, enc=lambda x: x):
    """XDR optional-data (*T): bool + value."""
    return boolean(False) if v is None else boolean(True) + enc(v)


def bitmap(bits):
    """bitmap4 from a set of bit numbers."""
    if not bits:
        return u32(0)
    words = [0] * (max(bits) // 32 + 1)
    for b in bits:
        words[b // 32] |= 1 << (b % 32)
    return array(words, u32)


# ===================================================================== RPC

CALL, REPLY = 0, 1
MSG_ACCEPTED, MSG_DENIED = 0, 1

ACCEPT_STATS = {0: "SUCCESS", 1: "PROG_UNAVAIL", 2: "PROG_MISMATCH", 3: "PROC_UNAVAIL",
                4: "GARBAGE_ARGS", 5: "SYSTEM_ERR"}
ACCEPT = {v: k for k, v in ACCEPT_STATS.items()}
RPC_MISMATCH, AUTH_ERROR = 0, 1
AUTH_STATS = {"AUTH_OK": 0, "AUTH_BADCRED": 1, "AUTH_REJECTEDCRED": 2, "AUTH_BADVERF": 3,
              "AUTH_REJECTEDVERF": 4, "AUTH_TOOWEAK": 5, "AUTH_INVALIDRESP": 6, "AUTH_FAILED": 7,
              "RPCSEC_GSS_CREDPROBLEM": 13, "RPCSEC_GSS_CTXPROBLEM": 14}

AUTH_NONE_FLAVOR, AUTH_SYS_FLAVOR, RPCSEC_GSS_FLAVOR = 0, 1, 6

PROG_NFS = 100003
PROG_MOUNT = 100005
PROG_NFS_CB = 0x40000000


class Cred:
    """An RPC credential (opaque_auth) with its flavor name for the log."""

    def __init__(self, flavor, body=b"", name=None, gss=None):
        self.flavor, self.body = flavor, body
        self.name = name or {0: "AUTH_NONE", 1: "AUTH_SYS", 6: "RPCSEC_GSS"}.get(flavor, "UNKNOWN")
        self.gss = gss                      # (gss_proc, seq_num, service, handle)

    def encode(self):
        return u32(self.flavor) + opaque(self.body)

    @property
    def gss_service(self):
        return None if self.gss is None else self.gss[2]


AUTH_NONE = Cred(AUTH_NONE_FLAVOR)
NULL_VERF = AUTH_NONE


def auth_sys(stamp=0x5eed, machine="client77", uid=1000, gid=1000, gids=(1000, 10)):
    body = u32(stamp) + string(machine) + u32(uid) + u32(gid) + array(list(gids), u32)
    return Cred(AUTH_SYS_FLAVOR, body)


GSS_DATA, GSS_INIT, GSS_CONTINUE_INIT, GSS_DESTROY = 0, 1, 2, 3
GSS_SVC = {"none": 1, "integrity": 2, "privacy": 3}


def rpcsec_gss(seq_num, service="none", handle=b"\x00\x00\x00\x01ctx77", gss_proc=GSS_DATA):
    """RPCSEC_GSS credential (rpc_gss_cred_vers_1_t)."""
    body = u32(1) + u32(gss_proc) + u32(seq_num) + u32(GSS_SVC[service]) + opaque(handle)
    return Cred(RPCSEC_GSS_FLAVOR, body, gss=(gss_proc, seq_num, service, handle))


def krb5_mic_token(seq, sender_is_acceptor=False):
    """RFC 4121 MIC token: TOK_ID 0404, flags, 5 x 0xff filler, SND_SEQ,
    12-byte checksum (aes-hmac-sha1-96 sized, deterministic filler)."""
    flags = 0x01 if sender_is_acceptor else 0x00
    return b"\x04\x04" + bytes([flags]) + b"\xff" * 5 + u64(seq) + bytes((seq * 7 + i) & 0xFF for i in range(12))


def krb5_wrap_token(seq, plaintext, sender_is_acceptor=False):
    """RFC 4121 Wrap token with 'sealed' flag: header + pseudo-ciphertext
    (a deterministic scrambling of the plaintext; nobody can decode it)."""
    flags = 0x02 | (0x01 if sender_is_acceptor else 0x00)
    hdr = b"\x05\x04" + bytes([flags]) + b"\xff" + struct.pack(">HH", 0, 28) + u64(seq)
    body = bytes((b ^ (0x5A + i)) & 0xFF for i, b in enumerate(plaintext)) + b"\xa5" * 28
    return hdr + body


def gss_verf(seq, acceptor=False):
    return Cred(RPCSEC_GSS_FLAVOR, krb5_mic_token(seq, acceptor))


def gss_wrap_body(body, cred, acceptor=False):
    """Wrap procedure args/results per the credential's service (RFC 2203 5.3.2)."""
    if cred.gss is None or cred.gss[0] != GSS_DATA:
        return body
    seq, service = cred.gss[1], cred.gss[2]
    if service == "integrity":
        return opaque(u32(seq) + body) + opaque(krb5_mic_token(seq, acceptor))
    if service == "privacy":
        return opaque(krb5_wrap_token(seq, u32(seq) + body, acceptor))
    return body


class Body:
    """Procedure arguments or results: bytes + expected log fields."""

    def __init__(self, data, info=None):
        self.data = bytes(data)
        self.info = dict(info or {})


class Msg:
    """An encoded RPC message (no record mark) and what it means."""

    def __init__(self, data, info, kind, xid, cred=None):
        self.data = data
        self.info = info          # expected-log fields this message determines
        self.kind = kind          # "call" or "reply"
        self.xid = xid
        self.cred = cred

    def __len__(self):
        return len(self.data)


# Keys that only a decoder that can read the procedure arguments can know.
ARG_KEYS = ("minor", "ops", "sessionid", "slotid", "sequenceid", "highest_slotid")
RES_KEYS = ("status", "op_status", "sr_highest_slotid", "target_highest_slotid")


def rpc_call(xid, args, cred=AUTH_NONE, verf=None, rpcvers=2, backchannel=False):
    """args: a Body from nfs3_call / compound / cb_compound / proc_call."""
    if verf is None:
        verf = gss_verf(cred.gss[1]) if cred.gss is not None else NULL_VERF
    info = dict(args.info)
    prog, vers, proc = info["prog"], info["vers"], info["proc"]
    data = (u32(xid) + u32(CALL) + u32(rpcvers) + u32(prog) + u32(vers) + u32(proc)
            + cred.encode() + verf.encode() + gss_wrap_body(args.data, cred))
    info.update(xid=xid, auth=cred.name, backchannel=backchannel)
    if cred.gss_service == "privacy":
        for k in ARG_KEYS:
            info.pop(k, None)
    return Msg(data, info, "call", xid, cred)


def rpc_reply(call, res=None, accept_stat="SUCCESS", verf=None, mismatch=(2, 4), xid=None):
    """Accepted reply to `call` (a Msg; or pass xid= with call=None for a
    reply whose call is unknown).  For SUCCESS, res is a Body of results;
    otherwise res is ignored and the NFS-level fields are null."""
    xid = call.xid if xid is None else xid
    cred = call.cred if call is not None else AUTH_NONE
    if verf is None:
        verf = gss_verf(cred.gss[1], acceptor=True) if cred.gss is not None else NULL_VERF
    st = ACCEPT[accept_stat]
    data = u32(xid) + u32(REPLY) + u32(MSG_ACCEPTED) + verf.encode() + u32(st)
    info = {}
    if st == 0:
        data += gss_wrap_body(res.data if res else b"", cred, acceptor=True)
        info.update(res.info if res else {})
        if cred.gss_service == "privacy":
            for k in RES_KEYS:
                info.pop(k, None)
    else:
        if st == 2:
            data += u32(mismatch[0]) + u32(mismatch[1])
        info.update(status=None, op_status=None, sr_highest_slotid=None, target_highest_slotid=None)
    info["rpc_status"] = accept_stat
    return Msg(data, info, "reply", xid, cred)


def rpc_denied(call, reject="RPC_MISMATCH", mismatch=(2, 2), auth_stat="AUTH_TOOWEAK", xid=None):
    xid = call.xid if xid is None else xid
    data = u32(xid) + u32(REPLY) + u32(MSG_DENIED)
    if reject == "RPC_MISMATCH":
        data += u32(RPC_MISMATCH) + u32(mismatch[0]) + u32(mismatch[1])
    else:
        data += u32(AUTH_ERROR) + u32(AUTH_STATS[auth_stat])
    info = dict(status=None, op_status=None, sr_highest_slotid=None, target_highest_slotid=None,
                rpc_status=reject)
    return Msg(data, info, "reply", xid, call.cred if call else None)


def record(msg, frags=None):
    """RFC 5531 section 11 record marking.  frags: sizes of the fragments
    (the remainder goes in a final fragment); default one fragment."""
    data = msg.data if isinstance(msg, Msg) else bytes(msg)
    sizes = list(frags or [])
    if sum(sizes) < len(data):
        sizes.append(len(data) - sum(sizes))
    out, off = b"", 0
    for i, n in enumerate(sizes):
        last = i == len(sizes) - 1
        out += u32((0x80000000 if last else 0) | n) + data[off:off + n]
        off += n
    return out


def proc_call(prog, vers, proc, args=b"", ops=None, minor=None):
    """A call to any program: Body with the generic expected fields.
    ops=None means the decoder cannot name the procedure (key omitted)."""
    info = dict(prog=prog, vers=vers, proc=proc, minor=minor, sessionid=None, slotid=None,
                sequenceid=None, highest_slotid=None)
    if ops is not None:
        info["ops"] = ops
    return Body(args, info)


def plain_res(data=b"", status=None):
    return Body(data, dict(status=status, op_status=None, sr_highest_slotid=None,
                           target_highest_slotid=None))


# ===================================================================== NFSv3

NFS3_PROCS = ["NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ", "WRITE",
              "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR", "RENAME", "LINK",
              "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO", "PATHCONF", "COMMIT"]
NFS3_STATUS = {"NFS3_OK": 0, "NFS3ERR_PERM": 1, "NFS3ERR_NOENT": 2, "NFS3ERR_IO": 5,
               "NFS3ERR_ACCES": 13, "NFS3ERR_EXIST": 17, "NFS3ERR_NOTDIR": 20,
               "NFS3ERR_NOSPC": 28, "NFS3ERR_STALE": 70, "NFS3ERR_BADHANDLE": 10001,
               "NFS3ERR_NOTSUPP": 10004, "NFS3ERR_JUKEBOX": 10008}

NF3REG, NF3DIR = 1, 2
UNSTABLE, DATA_SYNC, FILE_SYNC = 0, 1, 2


def fh3(n):
    """A deterministic 28-byte NFSv3 file handle for object number n."""
    return b"\x01\x00\x07\x01" + u32(0x770000) + u64(0xfeed) + u32(n) + u32(n * 3 + 1) + u32(0)


def nfs_fh3(fh):
    return opaque(fh)


def fattr3(fileid, ftype=NF3REG, size=0, mode=0o644, t=1764669000):
    return (u32(ftype) + u32(mode) + u32(1) + u32(1000) + u32(1000) + u64(size)
            + u64((size + 4095) // 4096 * 4096) + u32(0) + u32(0) + u64(0x77)
            + u64(fileid) + u32(t) + u32(0) + u32(t) + u32(0) + u32(t) + u32(0))


def post_op_attr(attr=None):
    return optional(attr)


def wcc_data(before_size=None, after=None, t=1764669000):
    pre = None if before_size is None else u64(before_size) + u32(t) + u32(0) + u32(t) + u32(0)
    return optional(pre) + post_op_attr(after)


def nfs3_call(name, args=b""):
    return proc_call(PROG_NFS, 3, NFS3_PROCS.index(name), args, ops=[name])


def nfs3_res(name, status="NFS3_OK", body=b""):
    """Results: nfsstat3 then the arm's body (caller passes the right one)."""
    if name == "NULL":
        return plain_res(b"", None)
    return plain_res(u32(NFS3_STATUS[status]) + body, status)


def nfs3_getattr_args(fh):
    return nfs_fh3(fh)


def nfs3_getattr_res_ok(attr):
    return attr


def diropargs3(dirfh, name):
    return nfs_fh3(dirfh) + string(name)


def nfs3_lookup_args(dirfh, name):
    return diropargs3(dirfh, name)


def nfs3_lookup_res_ok(fh, obj_attr, dir_attr):
    return nfs_fh3(fh) + post_op_attr(obj_attr) + post_op_attr(dir_attr)


def nfs3_lookup_res_fail(dir_attr):
    return post_op_attr(dir_attr)


def nfs3_access_args(fh, access=0x3F):
    return nfs_fh3(fh) + u32(access)


def nfs3_access_res(attr, access=None):
    return post_op_attr(attr) + (u32(access) if access is not None else b"")


def nfs3_read_args(fh, offset, count):
    return nfs_fh3(fh) + u64(offset) + u32(count)


def nfs3_read_res_ok(attr, data, eof=False):
    return post_op_attr(attr) + u32(len(data)) + boolean(eof) + opaque(data)


def nfs3_write_args(fh, offset, data, stable=UNSTABLE):
    return nfs_fh3(fh) + u64(offset) + u32(len(data)) + u32(stable) + opaque(data)


def nfs3_write_res_ok(count, committed=UNSTABLE, verf=b"wverf077", before=None, after=None):
    return wcc_data(before, after) + u32(count) + u32(committed) + fopaque(verf[:8])


def sattr3(mode=None, size=None):
    return (optional(None if mode is None else u32(mode)) + optional(None) + optional(None)
            + optional(None if size is None else u64(size)) + u32(0) + u32(0))


def nfs3_create_args(dirfh, name, mode=0, attrs=None, verf=b"cverf077"):
    """createhow3: mode 0 UNCHECKED / 1 GUARDED (sattr3), 2 EXCLUSIVE (verf)."""
    how = u32(mode) + (fopaque(verf[:8]) if mode == 2 else (attrs or sattr3(0o644)))
    return diropargs3(dirfh, name) + how


def nfs3_create_res_ok(fh, attr, dir_before=None, dir_after=None):
    return optional(nfs_fh3(fh)) + post_op_attr(attr) + wcc_data(dir_before, dir_after)


def nfs3_readdirplus_args(dirfh, cookie=0, verf=b"\0" * 8, dircount=4096, maxcount=32768):
    return nfs_fh3(dirfh) + u64(cookie) + fopaque(verf) + u32(dircount) + u32(maxcount)


def nfs3_readdirplus_res_ok(dir_attr, entries, eof=True, verf=b"rdverf77"):
    """entries: list of (fileid, name, cookie, attr-or-None, fh-or-None)."""
    out = post_op_attr(dir_attr) + fopaque(verf)
    for fileid, name, cookie, attr, fh in entries:
        out += boolean(True) + u64(fileid) + string(name) + u64(cookie) + post_op_attr(attr)
        out += optional(None if fh is None else nfs_fh3(fh))
    return out + boolean(False) + boolean(eof)


def nfs3_commit_args(fh, offset=0, count=0):
    return nfs_fh3(fh) + u64(offset) + u32(count)


def nfs3_commit_res_ok(verf=b"wverf077", before=None, after=None):
    return wcc_data(before, after) + fopaque(verf)


def nfs3_fsinfo_args(fh):
    return nfs_fh3(fh)


def nfs3_fsinfo_res_ok(attr=None):
    return (post_op_attr(attr) + u32(1048576) + u32(1048576) + u32(4096) + u32(1048576)
            + u32(1048576) + u32(4096) + u32(1048576) + u64(0x7FFFFFFFFFFFFFFF) + u32(0) + u32(1)
            + u32(0x1B))


# ===================================================================== NFSv4

NFS4_OPS = {"ACCESS": 3, "CLOSE": 4, "COMMIT": 5, "CREATE": 6, "GETATTR": 9, "GETFH": 10,
            "LOOKUP": 15, "OPEN": 18, "PUTFH": 22, "PUTROOTFH": 24, "READ": 25,
            "RENEW": 30, "SETCLIENTID": 35, "WRITE": 38, "BIND_CONN_TO_SESSION": 41,
            "EXCHANGE_ID": 42, "CREATE_SESSION": 43, "DESTROY_SESSION": 44,
            "DESTROY_CLIENTID": 57, "RECLAIM_COMPLETE": 58, "SEQUENCE": 53, "READ_PLUS": 68}
CB_OPS = {"CB_GETATTR": 3, "CB_RECALL": 4, "CB_SEQUENCE": 11}
NFS4_STATUS = {"NFS4_OK": 0, "NFS4ERR_PERM": 1, "NFS4ERR_NOENT": 2, "NFS4ERR_IO": 5,
               "NFS4ERR_ACCESS": 13, "NFS4ERR_EXIST": 17, "NFS4ERR_STALE": 70,
               "NFS4ERR_BADHANDLE": 10001, "NFS4ERR_DELAY": 10008, "NFS4ERR_EXPIRED": 10011,
               "NFS4ERR_GRACE": 10013, "NFS4ERR_CLID_INUSE": 10017,
               "NFS4ERR_NOFILEHANDLE": 10020, "NFS4ERR_STALE_CLIENTID": 10022,
               "NFS4ERR_BAD_STATEID": 10025, "NFS4ERR_BADSESSION": 10052,
               "NFS4ERR_BADSLOT": 10053, "NFS4ERR_CONN_NOT_BOUND_TO_SESSION": 10055,
               "NFS4ERR_SEQ_MISORDERED": 10063, "NFS4ERR_SEQUENCE_POS": 10064,
               "NFS4ERR_RETRY_UNCACHED_REP": 10068, "NFS4ERR_OP_NOT_IN_SESSION": 10071,
               "NFS4ERR_DEADSESSION": 10078}

NF4REG, NF4DIR = 1, 2
FATTR4_TYPE, FATTR4_CHANGE, FATTR4_SIZE, FATTR4_FILEID, FATTR4_MODE = 1, 3, 4, 20, 33


class Op:
    """One COMPOUND / CB_COMPOUND operation argument."""

    def __init__(self, name, data=b"", seq=None):
        self.name, self.data, self.seq = name, data, seq

    def encode(self):
        num = NFS4_OPS.get(self.name, CB_OPS.get(self.name))
        return u32(num) + self.data


class OpRes:
    def __init__(self, name, status="NFS4_OK", data=b"", seqres=None):
        self.name, self.status, self.data, self.seqres = name, status, data, seqres

    def encode(self):
        num = NFS4_OPS.get(self.name, CB_OPS.get(self.name))
        return u32(num) + u32(NFS4_STATUS[self.status]) + self.data


def _seq_info(ops):
    if ops and ops[0].seq is not None:
        sid, seqid, slot, hs = ops[0].seq
        return dict(sessionid=sid.hex(), slotid=slot, sequenceid=seqid, highest_slotid=hs)
    return dict(sessionid=None, slotid=None, sequenceid=None, highest_slotid=None)


def compound(ops, minor=1, tag=b"", prog=PROG_NFS, vers=4):
    data = opaque(tag) + u32(minor) + array(ops, Op.encode)
    info = dict(prog=prog, vers=vers, proc=1, minor=minor, ops=[o.name for o in ops])
    info.update(_seq_info(ops))
    return Body(data, info)


def compound_res(results, tag=b"", status=None):
    """results: OpRes list (stop at the first failure, as servers do)."""
    if status is None:
        status = results[-1].status if results else "NFS4_OK"
    data = u32(NFS4_STATUS[status]) + opaque(tag) + array(results, OpRes.encode)
    info = dict(status=status, op_status=[r.status for r in results],
                sr_highest_slotid=None, target_highest_slotid=None)
    if results and results[0].seqres is not None and results[0].status == "NFS4_OK":
        info["sr_highest_slotid"], info["target_highest_slotid"] = results[0].seqres
    return Body(data, info)


def cb_compound(ops, minor=1, tag=b"", ident=0, prog=PROG_NFS_CB, vers=1):
    data = opaque(tag) + u32(minor) + u32(ident) + array(ops, Op.encode)
    info = dict(prog=prog, vers=vers, proc=1, minor=minor, ops=[o.name for o in ops])
    info.update(_seq_info(ops))
    return Body(data, info)


cb_compound_res = compound_res


def nfs4_null(prog=PROG_NFS, vers=4):
    return proc_call(prog, vers, 0, b"", ops=["NULL"])


def fh4(n):
    return b"\x01\x00\x01\x00" + u32(0x77000000 + n) + u64(0xabcdef00 + n) + u32(n)


def stateid4(seqid, other=b"st77st77st77"):
    return u32(seqid) + fopaque(other[:12].ljust(12, b"\0"))


def fattr4(values):
    """values: dict attr-number -> encoded value; encoded in attr order."""
    return bitmap(list(values)) + opaque(b"".join(values[k] for k in sorted(values)))


def std_attrs(fileid, size=0, ftype=NF4REG, mode=0o644, change=1):
    return fattr4({FATTR4_TYPE: u32(ftype), FATTR4_CHANGE: u64(change), FATTR4_SIZE: u64(size),
                   FATTR4_FILEID: u64(fileid), FATTR4_MODE: u32(mode)})


STD_ATTR_BITS = [FATTR4_TYPE, FATTR4_CHANGE, FATTR4_SIZE, FATTR4_FILEID, FATTR4_MODE]


# -- operation arguments
def op_sequence(sessionid, sequenceid, slotid, highest_slotid, cachethis=False):
    return Op("SEQUENCE", fopaque(sessionid) + u32(sequenceid) + u32(slotid)
              + u32(highest_slotid) + boolean(cachethis),
              seq=(sessionid, sequenceid, slotid, highest_slotid))


def op_putrootfh():
    return Op("PUTROOTFH")


def op_putfh(fh):
    return Op("PUTFH", opaque(fh))


def op_getattr(bits=STD_ATTR_BITS):
    return Op("GETATTR", bitmap(bits))


def op_getfh():
    return Op("GETFH")


def op_lookup(name):
    return Op("LOOKUP", string(name))


def op_access(access=0x1F):
    return Op("ACCESS", u32(access))


OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_ACCESS_BOTH = 1, 2, 3


def op_open(name, clientid, owner=b"open-owner-77", seqid=0, access=OPEN4_SHARE_ACCESS_BOTH,
            deny=0, create=False, mode=0o644):
    how = u32(0)                                              # OPEN4_NOCREATE
    if create:
        how = u32(1) + u32(0) + fattr4({FATTR4_MODE: u32(mode)})   # OPEN4_CREATE UNCHECKED4
    claim = u32(0) + string(name)                             # CLAIM_NULL
    return Op("OPEN", u32(seqid) + u32(access) + u32(deny) + u64(clientid) + opaque(owner)
              + how + claim)


def op_close(stateid, seqid=0):
    return Op("CLOSE", u32(seqid) + stateid)


def op_read(stateid, offset, count):
    return Op("READ", stateid + u64(offset) + u32(count))


def op_write(stateid, offset, data, stable=2):
    return Op("WRITE", stateid + u64(offset) + u32(stable) + opaque(data))


def op_read_plus(stateid, offset, count):
    return Op("READ_PLUS", stateid + u64(offset) + u32(count))


SP4_NONE, SP4_MACH_CRED, SP4_SSV = 0, 1, 2
MACH_CRED_ENFORCE = [41, 42, 43, 44, 57]      # BIND_CONN, EXCHANGE_ID, CREATE/DESTROY_SESSION, DESTROY_CLIENTID
MACH_CRED_ALLOW = [4, 33, 38, 45, 52, 55]     # CLOSE, SECINFO, WRITE, FREE_STATEID, SECINFO_NO_NAME, TEST_STATEID


def nfs_impl_id(domain="kernel.org", name="nfsscope gen 1.0", date=1764669000):
    return string(domain) + string(name) + i64(date) + u32(0)


def op_exchange_id(owner=b"nfsscope-client-77", verifier=b"verf0077", flags=0x00000101,
                   sp=SP4_NONE, impl=True):
    spa = u32(sp)
    if sp == SP4_MACH_CRED:
        spa += bitmap(MACH_CRED_ENFORCE) + bitmap(MACH_CRED_ALLOW)
    return Op("EXCHANGE_ID", fopaque(verifier[:8]) + opaque(owner) + u32(flags) + spa
              + (array([nfs_impl_id()]) if impl else u32(0)))


def channel_attrs(maxreqs=64, maxreq=1049620, maxresp=1049480, maxresp_cached=7584, maxops=16,
                  padsize=0):
    return (u32(padsize) + u32(maxreq) + u32(maxresp) + u32(maxresp_cached) + u32(maxops)
            + u32(maxreqs) + u32(0))


CREATE_SESSION4_FLAG_PERSIST, CREATE_SESSION4_FLAG_CONN_BACK_CHAN = 0x1, 0x2


def op_create_session(clientid, seq=1, flags=CREATE_SESSION4_FLAG_CONN_BACK_CHAN,
                      fore=None, back=None, cb_program=PROG_NFS_CB, cb_sec=AUTH_NONE_FLAVOR):
    fore = fore or channel_attrs()
    back = back or channel_attrs(maxreqs=16, maxreq=4096, maxresp=4096, maxresp_cached=0,
                                 maxops=2)
    sec = array([u32(cb_sec) + (auth_sys(machine="server77", uid=0, gid=0, gids=()).body
                                if cb_sec == AUTH_SYS_FLAVOR else b"")])
    return Op("CREATE_SESSION", u64(clientid) + u32(seq) + u32(flags) + fore + back
              + u32(cb_program) + sec)


CDFC4_FORE, CDFC4_BACK, CDFC4_FORE_OR_BOTH, CDFC4_BACK_OR_BOTH = 1, 2, 3, 7
CDFS4_FORE, CDFS4_BACK, CDFS4_BOTH = 1, 2, 3


def op_bind_conn_to_session(sessionid, direction=CDFC4_FORE_OR_BOTH, rdma=False):
    return Op("BIND_CONN_TO_SESSION", fopaque(sessionid) + u32(direction) + boolean(rdma))


def op_destroy_session(sessionid):
    return Op("DESTROY_SESSION", fopaque(sessionid))


def op_reclaim_complete(one_fs=False):
    return Op("RECLAIM_COMPLETE", boolean(one_fs))


def op_cb_sequence(sessionid, sequenceid, slotid, highest_slotid, cachethis=False,
                   referring=()):
    """referring: list of (sessionid, [(sequenceid, slotid), ...])."""
    refs = array(list(referring), lambda r: fopaque(r[0]) + array(
        list(r[1]), lambda c: u32(c[0]) + u32(c[1])))
    return Op("CB_SEQUENCE", fopaque(sessionid) + u32(sequenceid) + u32(slotid)
              + u32(highest_slotid) + boolean(cachethis) + refs,
              seq=(sessionid, sequenceid, slotid, highest_slotid))


def op_cb_recall(stateid, fh, truncate=False):
    return Op("CB_RECALL", stateid + boolean(truncate) + opaque(fh))


# -- operation results (status is added by OpRes; body only when NFS4_OK)
def res_sequence(sessionid, sequenceid, slotid, highest_slotid, target, flags=0,
                 status="NFS4_OK"):
    if status != "NFS4_OK":
        return OpRes("SEQUENCE", status)
    return OpRes("SEQUENCE", status, fopaque(sessionid) + u32(sequenceid) + u32(slotid)
                 + u32(highest_slotid) + u32(target) + u32(flags),
                 seqres=(highest_slotid, target))


def res_cb_sequence(sessionid, sequenceid, slotid, highest_slotid, target, status="NFS4_OK"):
    if status != "NFS4_OK":
        return OpRes("CB_SEQUENCE", status)
    return OpRes("CB_SEQUENCE", status, fopaque(sessionid) + u32(sequenceid) + u32(slotid)
                 + u32(highest_slotid) + u32(target), seqres=(highest_slotid, target))


def res_simple(name, status="NFS4_OK"):
    return OpRes(name, status)


def res_getattr(attrs, status="NFS4_OK"):
    return OpRes("GETATTR", status, attrs if status == "NFS4_OK" else b"")


def res_getfh(fh, status="NFS4_OK"):
    return OpRes("GETFH", status, opaque(fh) if status == "NFS4_OK" else b"")


def res_access(supported=0x1F, access=0x1F, status="NFS4_OK"):
    return OpRes("ACCESS", status, u32(supported) + u32(access) if status == "NFS4_OK" else b"")


def res_open(stateid, before=1, after=2, rflags=0x4, status="NFS4_OK"):
    if status != "NFS4_OK":
        return OpRes("OPEN", status)
    cinfo = boolean(True) + u64(before) + u64(after)
    return OpRes("OPEN", status, stateid + cinfo + u32(rflags) + bitmap([]) + u32(0))  # OPEN_DELEGATE_NONE


def res_close(stateid, status="NFS4_OK"):
    return OpRes("CLOSE", status, stateid if status == "NFS4_OK" else b"")


def res_read(data, eof=False, status="NFS4_OK"):
    return OpRes("READ", status, boolean(eof) + opaque(data) if status == "NFS4_OK" else b"")


def res_write(count, committed=2, verf=b"wverf4_7", status="NFS4_OK"):
    return OpRes("WRITE", status, u32(count) + u32(committed) + fopaque(verf[:8])
                 if status == "NFS4_OK" else b"")


def res_read_plus(segments, eof=False, status="NFS4_OK"):
    """segments: ("data", offset, bytes) or ("hole", offset, length)."""
    if status != "NFS4_OK":
        return OpRes("READ_PLUS", status)
    body = b""
    for s in segments:
        if s[0] == "data":
            body += u32(0) + u64(s[1]) + opaque(s[2])
        else:
            body += u32(1) + u64(s[1]) + u64(s[2])
    return OpRes("READ_PLUS", status, boolean(eof) + u32(len(segments)) + body)


def res_exchange_id(clientid, seq=1, flags=0x00010101, sp=SP4_NONE, status="NFS4_OK"):
    if status != "NFS4_OK":
        return OpRes("EXCHANGE_ID", status)
    spr = u32(sp)
    if sp == SP4_MACH_CRED:
        spr += bitmap(MACH_CRED_ENFORCE) + bitmap(MACH_CRED_ALLOW)
    body = (u64(clientid) + u32(seq) + u32(flags) + spr + u64(0) + opaque(b"server77-major")
            + opaque(b"server77-scope") + array([nfs_impl_id(name="nfsscope server")]))
    return OpRes("EXCHANGE_ID", status, body)


def res_create_session(sessionid, seq=1, flags=CREATE_SESSION4_FLAG_CONN_BACK_CHAN, fore=None,
                       back=None, status="NFS4_OK"):
    if status != "NFS4_OK":
        return OpRes("CREATE_SESSION", status)
    fore = fore or channel_attrs(maxreqs=16)
    back = back or channel_attrs(maxreqs=1, maxreq=4096, maxresp=4096, maxresp_cached=0,
                                 maxops=2)
    return OpRes("CREATE_SESSION", status, fopaque(sessionid) + u32(seq) + u32(flags) + fore + back)


def res_bind_conn_to_session(sessionid, direction=CDFS4_BOTH, rdma=False, status="NFS4_OK"):
    if status != "NFS4_OK":
        return OpRes("BIND_CONN_TO_SESSION", status)
    return OpRes("BIND_CONN_TO_SESSION", status, fopaque(sessionid) + u32(direction) + boolean(rdma))
