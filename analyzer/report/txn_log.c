/* The transaction log's line (nfsscope/report.h, doc/txn-log.md). */
#include "json_write.h"
#include "nfsscope/report.h"
#include "nfsscope/view.h"
#include "nfsscope/who.h"

static void null_or_u(FILE *o, const char *key, bool have, unsigned long long v)
{
    if (have) fprintf(o, ",\"%s\":%llu", key, v);
    else fprintf(o, ",\"%s\":null", key);
}

static void write_ops(FILE *o, const struct ns_txn *t)
{
    fputs(",\"ops\":[", o);
    if (ns_txn_is_compound(t) && t->call_frame) {
        for (uint32_t i = 0, n = ns_txn_nops(t); i < n; i++) {
            if (i) fputc(',', o);
            json_cstr(o, ns_txn_op_name(t, i));
        }
    } else if (t->call_frame) {
        json_cstr(o, ns_txn_proc_name(t));
    }
    fputc(']', o);
}

/* API version 8 (doc/who.md): the transaction's primary handle and its
 * path rebuilt from the wire, and who sent the call. */
static void write_who(FILE *o, const ns_analyzer *a, const struct ns_txn *t)
{
    const uint8_t *fh;
    size_t len;
    char path[NS_PATH_STRLEN];
    fputs(",\"fh\":", o);
    bool have = ns_analyzer_txn_fh(a, t, &fh, &len);
    if (have) json_hex(o, fh, len); else fputs("null", o);
    fputs(",\"path\":", o);
    if (have && ns_analyzer_fh_path(a, fh, len, path, sizeof path)) json_cstr(o, path); else fputs("null", o);
    struct ns_who_user u;
    bool who = ns_analyzer_txn_user(a, t, &u);
    null_or_u(o, "uid", who && u.auth == NS_WHO_AUTH_SYS, u.uid);
    null_or_u(o, "gid", who && u.auth == NS_WHO_AUTH_SYS, u.gid);
    fputs(",\"gss_context\":", o);
    if (who && u.auth == NS_WHO_AUTH_GSS) json_hex(o, u.gss_handle, u.gss_handle_len); else fputs("null", o);
}

/* The line without its closing brace. */
static void txn_fields(FILE *o, const ns_analyzer *a, const struct ns_txn *t)
{
    const struct ns_conn *c = ns_analyzer_conn(a, t->conn_id);
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
    fputs(",\"conn\":", o);
    json_conn(o, t->conn_id);
    fprintf(o, ",\"transport\":\"%s\",\"client\":", ns_transport_name(c ? c->transport : NS_TRANSPORT_TCP));
    json_cstr(o, cli);
    fputs(",\"server\":", o);
    json_cstr(o, srv);
    fprintf(o, ",\"xid\":%u", t->xid);
    bool cut = t->call_header_cut; /* header cut by the snaplen: only what was captured */
    null_or_u(o, "prog", call && (!cut || t->prog_known), t->prog);
    null_or_u(o, "vers", call && (!cut || t->vers_known), t->vers);
    null_or_u(o, "proc", call && (!cut || t->proc_known), t->proc);
    bool v4 = ns_txn_is_compound(t);
    const struct nfs4_call *c4 = &t->u.v4.call;
    const struct nfs4_reply *r4 = &t->u.v4.reply;
    null_or_u(o, "minor", v4 && call && !cut, c4->minor);
    fprintf(o, ",\"backchannel\":%s", t->backchannel ? "true" : "false");
    fputs(",\"auth\":", o);
    if (call && (!cut || t->auth_known)) json_cstr(o, ns_auth_flavor_name(t->auth_flavor)); else fputs("null", o);
    const char *svc = ns_gss_service_name(t->gss_service);
    fputs(",\"gss_service\":", o);
    if (svc) json_cstr(o, svc); else fputs("null", o);
    fputs(",\"tag\":", o);
    if (v4 && call && !cut) json_str(o, c4->tag, c4->tag_len); else fputs("null", o);
    write_ops(o, t);
    bool ops_cut = v4 && ((call && c4->ops_cut) || (reply && r4->res_cut)); /* past NS_MAX_OPS: not all listed */
    fprintf(o, ",\"ops_cut\":%s", ops_cut ? "true" : "false");
    fprintf(o, ",\"ops_from_reply\":%u", t->ops_from_reply); /* last N ops: call bytes not captured */
    fputs(",\"rpc_status\":", o);
    if (reply) json_cstr(o, ns_rpc_status_name(t->rpc_status)); else fputs("null", o);
    const char *st = ns_txn_status_name(t);
    fputs(",\"status\":", o);
    if (st) json_cstr(o, st); else fputs("null", o);
    fputs(",\"op_status\":", o);
    if (v4 && reply && t->has_status) {
        fputc('[', o);
        uint32_t op, ost;
        for (uint32_t i = 0; ns_txn_res(t, i, &op, &ost); i++) {
            if (i) fputc(',', o);
            json_cstr(o, ns_nfs4_status_name(ost));
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
    unsigned kept = ns_txn_sends_kept(t);
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
    /* API version 5: why a call has no reply, how long it had waited when
     * memory ran short, and a reply matched to such a call */
    const char *verdict = ns_txn_verdict_name(t->verdict);
    fputs(",\"verdict\":", o);
    if (verdict) json_cstr(o, verdict); else fputs("null", o);
    null_or_u(o, "waited_us", t->verdict == NS_VERDICT_EVICTED_WAITING, (uint64_t)(t->waited_ns / 1000));
    fprintf(o, ",\"late_reply\":%s", t->late_reply ? "true" : "false");
    write_who(o, a, t);
}

void ns_report_txn_line(FILE *o, const ns_analyzer *a, const struct ns_txn *t)
{
    txn_fields(o, a, t);
    fputs("}\n", o);
}

static void null_or_us(FILE *o, const char *key, bool have, int64_t ns)
{
    if (have) fprintf(o, ",\"%s\":%lld", key, (long long)(ns / 1000));
    else fprintf(o, ",\"%s\":null", key);
}

void ns_report_txn_line_two_point(FILE *o, const ns_analyzer *a, const struct ns_txn *t, const struct ns_tp_split *s)
{
    txn_fields(o, a, t);
    null_or_us(o, "server_us", s->has_split, s->server_ns);
    null_or_us(o, "network_us", s->has_split, s->network_ns);
    fputs("}\n", o);
}
