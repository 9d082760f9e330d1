"""RPC-over-transport glue: sends rpcbuild messages through netbuild
connections and derives the expected transaction log from what was written.

    exp = Expect(cap)
    rt = RpcTcp(exp, conn)
    t = rt.call(call_msg)          # queue record on the client stream
    conn.flush(0)                  # send it (any segmentation / loss / order)
    rt.reply(t, reply_msg)
    conn.flush(1)
    exp.write(outdir, name)        # NAME.pcap, NAME.expected.jsonl, NAME.meta.json

A message counts as captured in the frame in which its last missing byte
arrived, or, when the snapshot length cut some of its bytes, in the frame
that carried its first byte (record mark and header) (TCP: first copy of every byte of the record, including its record
marks; UDP: the frame that completed IP reassembly).  A message with a byte
that never reached the capture is not there at all: a transaction whose call
is missing becomes an orphan reply, one whose reply is missing a call alone.
"""
import json
import os

from rpcbuild import record

# Key order of doc/txn-log.md, restricted to what the generator asserts.
KEY_ORDER = ["call_frame", "reply_frame", "conn", "transport", "xid", "prog", "vers", "proc",
             "minor", "backchannel", "auth", "ops", "status", "op_status", "sends",
             "sessionid", "slotid", "sequenceid", "highest_slotid", "sr_highest_slotid",
             "target_highest_slotid"]
CALL_KEYS = ["prog", "vers", "proc", "minor", "backchannel", "auth", "ops", "sessionid", "slotid",
             "sequenceid", "highest_slotid"]
REPLY_KEYS = ["status", "op_status", "sr_highest_slotid", "target_highest_slotid"]


class TcpRef:
    def __init__(self, stream, off, end):
        self.stream, self.off, self.end = stream, off, end

    def frame(self):
        return self.stream.message_frame(self.off, self.end)


class FrameRef:
    def __init__(self, frame):
        self._frame = frame

    def frame(self):
        return self._frame


class Txn:
    def __init__(self, exp, flow, transport, call, order):
        self.exp, self.flow, self.transport = exp, flow, transport
        self.flow_key = flow.key()     # fixed now: a TCP 4-tuple may be reused later
        self.call = call
        self.call_refs = []        # one per transmission
        self.reply = None
        self.reply_refs = []
        self.order = order
        self.omit = set()          # keys the scenario declares unknowable

    @property
    def xid(self):
        return self.call.xid


class Expect:
    def __init__(self, cap):
        self.cap = cap
        self.txns = []
        self.msgs = []             # (ref, xid, msgtype) every RPC message sent
        self.meta = {"nfsscope_exit": 0, "tshark_compare": True, "tshark_args": [],
                     "damaged": False}

    def new_txn(self, flow, transport, call):
        t = Txn(self, flow, transport, call, len(self.txns))
        self.txns.append(t)
        return t

    def note_msg(self, ref, xid, kind):
        self.msgs.append((ref, xid, 0 if kind == "call" else 1))

    # ---------------------------------------------------------- derivation
    def records(self):
        out = []
        for t in self.txns:
            call_frames = [f for f in (r.frame() for r in t.call_refs) if f is not None]
            reply_frames = [f for f in (r.frame() for r in t.reply_refs) if f is not None]
            cf = min(call_frames) if call_frames else None
            rf = min(reply_frames) if reply_frames else None
            if cf is None and rf is None:
                continue
            rec = {"call_frame": cf, "reply_frame": rf, "conn": self.cap.conns[t.flow_key],
                   "transport": t.transport,
                   "xid": t.xid}
            if cf is not None:
                for k in CALL_KEYS:
                    if k in t.call.info:
                        rec[k] = t.call.info[k]
                rec["sends"] = len(call_frames)
                if rf is None:
                    rec.update(status=None, op_status=None, sr_highest_slotid=None,
                               target_highest_slotid=None)
                else:
                    for k in REPLY_KEYS:
                        if k in t.reply.info:
                            rec[k] = t.reply.info[k]
                    # the reply fields need the call's procedure to decode
                    if "ops" not in t.call.info and t.reply.info.get("rpc_status") == "SUCCESS":
                        for k in REPLY_KEYS:
                            rec.pop(k, None)
            for k in t.omit:
                rec.pop(k, None)
            rec = {k: rec[k] for k in KEY_ORDER if k in rec}
            key = (cf if cf is not None else rf, t.order)
            out.append((key, rec))
        out.sort(key=lambda x: x[0])
        return [r for _, r in out]

    def rpc_msgs(self):
        seen = set()
        out = []
        for ref, xid, typ in self.msgs:
            f = ref.frame()
            if f is None or (f, xid, typ) in seen:
                continue
            seen.add((f, xid, typ))
            out.append([f, xid, typ])
        return sorted(out)

    def write(self, outdir, name, ext="pcap"):
        path = os.path.join(outdir, "%s.%s" % (name, ext))
        self.cap.save(path)
        with open(os.path.join(outdir, name + ".expected.jsonl"), "w") as f:
            for r in self.records():
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
        meta = dict(self.meta, name=name, capture=os.path.basename(path),
                    frames=self.meta.get("frames", self.cap.nframes), rpc_msgs=self.rpc_msgs())
        with open(os.path.join(outdir, name + ".meta.json"), "w") as f:
            json.dump(meta, f, indent=1, sort_keys=True)
            f.write("\n")
        return path


class RpcTcp:
    """RPC over one TcpConnection.  Forechannel calls go client->server
    (direction 0); backchannel calls (CB_COMPOUND) server->client."""

    def __init__(self, exp, conn):
        self.exp, self.conn = exp, conn

    def _put(self, d, msg, frags):
        off, end = self.conn.write(d, record(msg, frags))
        ref = TcpRef(self.conn.stream(d), off, end)
        self.exp.note_msg(ref, msg.xid, msg.kind)
        return ref

    def call(self, msg, frags=None, backchannel=False):
        d = 1 if backchannel else 0
        t = self.exp.new_txn(self.conn, "tcp", msg)
        t.dir = d
        t.call_refs.append(self._put(d, msg, frags))
        return t

    def reply(self, t, msg, frags=None):
        if t.reply is None:
            t.reply = msg
        t.reply_refs.append(self._put(1 - t.dir, msg, frags))
        return t

    def exchange(self, call, reply, flush=True, **kw):
        """Call + flush + reply + flush (+ nothing else)."""
        bc = call.info.get("backchannel", False)
        t = self.call(call, backchannel=bc)
        if flush:
            self.conn.flush(t.dir, **kw)
        self.reply(t, reply)
        if flush:
            self.conn.flush(1 - t.dir)
        return t


class RpcUdp:
    def __init__(self, exp, flow):
        self.exp, self.flow = exp, flow

    def call(self, msg, **kw):
        t = self.exp.new_txn(self.flow, "udp", msg)
        t.dir = 0
        self.resend(t, **kw)
        return t

    def resend(self, t, **kw):
        f = self.flow.send(0, t.call.data, **kw)
        ref = FrameRef(f)
        t.call_refs.append(ref)
        self.exp.note_msg(ref, t.xid, "call")
        return f

    def reply(self, t, msg, **kw):
        if t.reply is None:
            t.reply = msg
        f = self.flow.send(1, msg.data, **kw)
        ref = FrameRef(f)
        t.reply_refs.append(ref)
        self.exp.note_msg(ref, msg.xid, "reply")
        return f

    def exchange(self, call, reply, **kw):
        t = self.call(call, **kw)
        self.reply(t, reply)
        return t


def generator_main(argv, names, write, doc):
    """The command line every capture generator shares:
        GEN OUTDIR [NAME...]   write the captures (write(name, outdir) -> path)
        GEN --list             their file names
        GEN --same-as OUTDIR   write them again elsewhere and compare (determinism)"""
    import filecmp
    import sys
    import tempfile
    if len(argv) >= 2 and argv[1] == "--list":
        for name in names:
            print(name + ".pcap")
        return 0
    if len(argv) >= 3 and argv[1] == "--same-as":
        with tempfile.TemporaryDirectory() as tmp:
            for name in names:
                write(name, tmp)
            files = sorted(os.listdir(tmp))
            _, mismatch, errors = filecmp.cmpfiles(argv[2], tmp, files, shallow=False)
        for f in mismatch + errors:
            print("differs or missing: %s" % f)
        print("%d files compared, %d differ" % (len(files), len(mismatch) + len(errors)))
        return 1 if mismatch or errors else 0
    if len(argv) < 2:
        print(doc, file=sys.stderr)
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    for name in argv[2:] or list(names):
        print(write(name, outdir))
    return 0
