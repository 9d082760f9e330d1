#include "cli_txnlog.h"

#include "cli_json.h"

const char *rpc_status_name(uint32_t s)
{
    switch (s) {
    case NS_RPC_SUCCESS: return "SUCCESS";
    case NS_RPC_PROG_UNAVAIL: return "PROG_UNAVAIL";
    case NS_RPC_PROG_MISMATCH: return "PROG_MISMATCH";
    case NS_RPC_PROC_UNAVAIL: return "PROC_UNAVAIL";
    case NS_RPC_GARBAGE_ARGS: return "GARBAGE_ARGS";
    case NS_RPC_SYSTEM_ERR: return "SYSTEM_ERR";
    case NS_RPC_RPC_MISMATCH: return "RPC_MISMATCH";
    case NS_RPC_AUTH_ERROR: return "AUTH_ERROR";
    default: return "UNKNOWN";
    }
}

const char *txn_status_name(const struct ns_txn *t)
{
    if (!t->has_status) return NULL;
    switch (t->kind) {
    case NS_TXN_NFS3: return ns_nfs3_status_name(t->status);
    case NS_TXN_NFS4: case NS_TXN_NFS4_CB: return ns_nfs4_status_name(t->status);
    case NS_TXN_MOUNT: return ns_mount3_status_name(t->status);
    default: return NULL;
    }
}

static void null_or_u(FILE *o, const char *key, bool have, unsigned long long v)
{
    if (have) fprintf(o, ",\"%s\":%llu", key, v);
    else fprintf(o, ",\"%s\":null", key);
}

static void write_ops(FILE *o, const struct ns_txn *t)
{
    fputs(",\"ops\":[", o);
    bool v4 = (t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB) && t->proc == 1 && t->call_frame;
    if (v4) {
        const struct nfs4_call *c = &t->u.v4.call;
        for (uint16_t i = 0; i < c->nops; i++) {
            if (i) fputc(',', o);
            json_cstr(o, t->kind == NS_TXN_NFS4 ? ns_nfs4_op_name(c->op[i]) : ns_nfs4_cb_op_name(c->op[i]));
        }
    } else if (t->call_frame) {
        json_cstr(o, ns_rpc_proc_name(t->backchannel ? 0x40000000u : t->prog, t->vers, t->proc));
    }
    fputc(']', o);
}

void txnlog_write(void *ctx, const struct ns_txn *t)
{
    struct txnlog *l = ctx;
    FILE *o = l->out;
    const struct ns_conn *c = ns_analyzer_conn(l->a, t->conn_id);
    char cli[NS_ENDPOINT_STRLEN] = "", srv[NS_ENDPOINT_STRLEN] = "";
    if (c) {
        ns_endpoint_str(&c->client, cli, sizeof cli);
        ns_endpoint_str(&c->server, srv, sizeof srv);
    }
    bool call = t->call_frame != 0, reply = t->reply_frame != 0;
    fputs("{\"call_frame\":", o);
    if (call) fprintf(o, "%llu", (unsigned long long)t->call_frame); else fputs("null", o);
    fputs(",\"reply_frame\":", o);
    if (reply) fprintf(o, "%llu", (unsigned long long)t->reply_frame); else fputs("null", o);
    fputs(",\"ts\":", o);
    json_ts(o, call ? t->call_ts_ns : t->reply_ts_ns);
    fprintf(o, ",\"conn\":\"c%u\",\"transport\":\"%s\",\"client\":", t->conn_id,
            c && c->transport == NS_TRANSPORT_UDP ? "udp" : "tcp");
    json_cstr(o, cli);
    fputs(",\"server\":", o);
    json_cstr(o, srv);
    fprintf(o, ",\"xid\":%u", t->xid);
    null_or_u(o, "prog", call, t->prog);
    null_or_u(o, "vers", call, t->vers);
    null_or_u(o, "proc", call, t->proc);
    bool v4 = (t->kind == NS_TXN_NFS4 || t->kind == NS_TXN_NFS4_CB) && t->proc == 1;
    const struct nfs4_call *c4 = &t->u.v4.call;
    const struct nfs4_reply *r4 = &t->u.v4.reply;
    null_or_u(o, "minor", v4 && call, c4->minor);
    fprintf(o, ",\"backchannel\":%s", t->backchannel ? "true" : "false");
    fputs(",\"auth\":", o);
    if (call) json_cstr(o, ns_auth_flavor_name(t->auth_flavor)); else fputs("null", o);
    static const char *const svc[] = {NULL, "none", "integrity", "privacy"};
    fputs(",\"gss_service\":", o);
    if (t->gss_service && t->gss_service <= 3) json_cstr(o, svc[t->gss_service]); else fputs("null", o);
    fputs(",\"tag\":", o);
    if (v4 && call) json_str(o, c4->tag, c4->tag_len); else fputs("null", o);
    write_ops(o, t);
    fputs(",\"rpc_status\":", o);
    if (reply) json_cstr(o, rpc_status_name(t->rpc_status)); else fputs("null", o);
    const char *st = txn_status_name(t);
    fputs(",\"status\":", o);
    if (st) json_cstr(o, st); else fputs("null", o);
    fputs(",\"op_status\":", o);
    if (v4 && reply && t->has_status) {
        fputc('[', o);
        for (uint16_t i = 0; i < r4->nres; i++) {
            if (i) fputc(',', o);
            json_cstr(o, ns_nfs4_status_name(r4->res_status[i]));
        }
        fputc(']', o);
    } else {
        fputs("null", o);
    }
    int64_t lat = ns_txn_latency_ns(t);
    null_or_u(o, "latency_us", lat >= 0, (unsigned long long)(lat / 1000));
    null_or_u(o, "call_bytes", call, t->call_bytes);
    null_or_u(o, "reply_bytes", reply, t->reply_bytes);
    fprintf(o, ",\"sends\":%u,\"send_ts\":[", t->sends);
    unsigned kept = call ? (t->sends < NS_TXN_SENDS_KEPT ? t->sends : NS_TXN_SENDS_KEPT) : 0;
    for (unsigned i = 0; i < kept; i++) {
        if (i) fputc(',', o);
        json_ts(o, t->send_ts_ns[i]);
    }
    fputs("],\"send_frames\":[", o);
    for (unsigned i = 0; i < kept; i++) fprintf(o, "%s%llu", i ? "," : "", (unsigned long long)t->send_frame[i]);
    fprintf(o, "],\"dup_replies\":%u,\"truncated\":%s", t->dup_replies,
            t->call_truncated || t->reply_truncated ? "true" : "false");
    bool seq = v4 && call && c4->has_seq;
    fputs(",\"sessionid\":", o);
    if (seq) json_hex(o, c4->seq.sessionid, NS_SESSIONID_LEN); else fputs("null", o);
    null_or_u(o, "slotid", seq, c4->seq.slotid);
    null_or_u(o, "sequenceid", seq, c4->seq.sequenceid);
    null_or_u(o, "highest_slotid", seq, c4->seq.highest_slotid);
    bool sr = v4 && reply && r4->has_seq;
    null_or_u(o, "sr_highest_slotid", sr, r4->seq.highest_slotid);
    null_or_u(o, "target_highest_slotid", sr, r4->seq.target_highest_slotid);
    null_or_u(o, "status_flags", sr, r4->seq.status_flags);
    fputs("}\n", o);
}
