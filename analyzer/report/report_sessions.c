/* The "Clients", "Sessions" and "READ_PLUS" sections (text) and clients[],
 * sessions[], read_plus (JSON, doc/json-report.md). */
#include <inttypes.h>

#include "json_write.h"
#include "report_int.h"

/* Printable bytes as they are, others as \xNN (owner strings). */
static void text_bytes(FILE *o, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (b[i] >= 0x20 && b[i] < 0x7f) fputc(b[i], o);
        else fprintf(o, "\\x%02x", b[i]);
    }
}

/* ---- text ---- */

void report_clients_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec, const struct ns_report_filter *flt)
{
    size_t n = ns_analyzer_client_count(a), shown = 0;
    for (size_t i = 0; i < n; i++) shown += filter_shows_client(flt, ns_analyzer_client(a, i)->clientid);
    fprintf(o, "\n%s (%zu)\n", sec->title, shown);
    for (size_t i = 0; i < n; i++) {
        const struct ns_client_view *c = ns_analyzer_client(a, i);
        if (!filter_shows_client(flt, c->clientid)) continue;
        fprintf(o, "  client %016" PRIx64, c->clientid);
        if (c->from_exchange_id) {
            fputs("  owner \"", o);
            text_bytes(o, c->owner, c->owner_len);
            fprintf(o, "%s\"  %s", c->owner_len < c->owner_wire_len ? "..." : "", ns_state_protect_name(c->sp_granted));
            if (c->sp_requested != c->sp_granted) fprintf(o, " (asked %s)", ns_state_protect_name(c->sp_requested));
            fprintf(o, "  eir_sequenceid %u  flags 0x%08x", c->eir_sequenceid, c->eir_flags);
        } else {
            fputs("  (EXCHANGE_ID not captured)", o);
        }
        fputc('\n', o);
        char id[NS_CONN_NAME_LEN];
        fprintf(o, "    sessions %u  conn %s", c->sessions, ns_conn_name(c->conn_id, id, sizeof id));
        if (c->exchange_call_frame) fprintf(o, "  EXCHANGE_ID frames %" PRIu64 "/%" PRIu64, c->exchange_call_frame, c->exchange_reply_frame);
        if (c->replaces_clientid) fprintf(o, "  re-established (was %016" PRIx64 ")", c->replaces_clientid);
        if (c->server_addrs > 1) fprintf(o, "  server trunking: %u server addresses", c->server_addrs);
        if (c->grace_replies) fprintf(o, "  GRACE replies %" PRIu64, c->grace_replies);
        if (c->reclaim_complete_ok || c->reclaim_complete_failed)
            fprintf(o, "  RECLAIM_COMPLETE ok %" PRIu64 " failed %" PRIu64, c->reclaim_complete_ok, c->reclaim_complete_failed);
        fputc('\n', o);
        report_deleg_text(o, c);
    }
}

static void chan_text(FILE *o, const char *name, const struct ns_session_view *s, const struct nfs4_chan_attrs *rq,
                      const struct nfs4_chan_attrs *gr)
{
    fprintf(o, "    %s  slots ", name);
    if (s->has_requested) fprintf(o, "%u", rq->maxrequests); else fputs("?", o);
    fputs(" asked / ", o);
    if (s->has_granted) fprintf(o, "%u", gr->maxrequests); else fputs("?", o);
    fputs(" granted", o);
    if (s->has_granted)
        fprintf(o, "  max request %u  max response %u (cached %u)  max ops %u", gr->maxrequestsize, gr->maxresponsesize,
                gr->maxresponsesize_cached, gr->maxoperations);
    fputc('\n', o);
}

/* A session the server does not know or that was destroyed, and its use after. */
static void dead_text(FILE *o, const struct ns_session_view *s)
{
    const char *st = ns_session_state_phrase(s);
    if (!st && !s->badsession_replies) return;
    fprintf(o, "    %s", st ? st : "NFS4ERR_BADSESSION");
    if (s->badsession_replies)
        fprintf(o, "  NFS4ERR_BADSESSION replies %" PRIu64 " (frames %" PRIu64 " to %" PRIu64 ")", s->badsession_replies,
                s->badsession_first_frame, s->badsession_last_frame);
    if (s->dead) fprintf(o, "  dead at frame %" PRIu64, s->dead_frame);
    if (s->calls_after_dead)
        fprintf(o, "  calls sent after that %" PRIu64 " (frames %" PRIu64 " to %" PRIu64 ")", s->calls_after_dead,
                s->after_dead_first_frame, s->after_dead_last_frame);
    if (s->recovered_frame) fprintf(o, "  recovered: CREATE_SESSION frame %" PRIu64, s->recovered_frame);
    else if (s->dead) fputs("  no CREATE_SESSION after", o);
    fputc('\n', o);
}

/* A connection's name and what the back channel saw of it: bound for it or
 * not, closed (FIN or RST) or still open at the end. */
static const char *bc_conn_phrase(const ns_analyzer *a, const struct ns_session_conn *c)
{
    const struct ns_conn *k = ns_analyzer_conn(a, c->conn_id);
    bool closed = k && k->closed;
    if (c->back) return closed ? "bound BACK, closed" : "bound BACK";
    return closed ? "not bound BACK, closed" : "not bound BACK";
}

/* The back channel: slots, callbacks and the connections that carried them. */
static void back_channel_text(FILE *o, const ns_analyzer *a, const struct ns_session_view *s)
{
    const struct ns_back_channel *b = s->back_channel;
    if (!b || (!b->calls && !b->backchannel_ctl)) return;
    if (b->backchannel_ctl)
        fprintf(o, "      BACKCHANNEL_CTL %" PRIu64 " (last frame %" PRIu64 ")\n", b->backchannel_ctl,
                b->backchannel_ctl_frame);
    if (!b->calls) return;
    fprintf(o, "      callbacks %" PRIu64 "  replies %" PRIu64 "  unanswered %" PRIu64 "  resent %" PRIu64
               "  errors %" PRIu64 "  slots used up to %u\n",
            b->calls, b->replies, b->unanswered, b->resends, b->errors, b->highest_slot_used);
    fprintf(o, "      granted now %u", b->granted_now);
    if (b->has_cb_reply) fprintf(o, " (csr_highest_slotid %u)", b->csr_highest_slotid);
    fprintf(o, "  max outstanding %u  CB_SEQUENCE", b->max_outstanding);
    for (uint32_t v = 1; v < NS_CB_VERDICTS; v++)
        if (b->verdicts[v]) fprintf(o, "  %s %" PRIu64, ns_slot_verdict_name((uint8_t)v), b->verdicts[v]);
    for (uint32_t k = 0; k < b->nstatus; k++)
        fprintf(o, "%s%s %" PRIu64, k ? "  " : "  statuses: ", ns_nfs4_status_name(b->status[k].status),
                b->status[k].count);
    fputc('\n', o);
    char id[NS_CONN_NAME_LEN];
    for (uint32_t k = 0; k < s->nconns; k++) {
        const struct ns_session_conn *c = &s->conns[k];
        if (!c->back && !c->cb_calls) continue;
        fprintf(o, "      %-5s %-25s callbacks %" PRIu64 "\n", ns_conn_name(c->conn_id, id, sizeof id),
                bc_conn_phrase(a, c), c->cb_calls);
    }
}

/* SEQUENCE status flags: per flag the replies carrying it, first and last. */
static void status_flags_text(FILE *o, const struct ns_session_view *s)
{
    const struct ns_status_flags *f = s->status_flags;
    if (!f || !f->flagged_replies) return;
    fprintf(o, "    status flags  %" PRIu64 " of %" PRIu64 " SEQUENCE replies flagged\n", f->flagged_replies,
            f->seq_replies);
    for (uint32_t bit = 0; bit < NS_STATUS_FLAGS; bit++) {
        const struct ns_status_flag *e = &f->flag[bit];
        if (!e->replies) continue;
        char t1[NS_TIME_STRLEN], t2[NS_TIME_STRLEN], nm[16];
        const char *name = ns_status_flag_name(bit);
        if (!name) {
            snprintf(nm, sizeof nm, "bit %u", bit);
            name = nm;
        }
        ns_clock_str(e->first_ts_ns, t1, sizeof t1);
        ns_clock_str(e->last_ts_ns, t2, sizeof t2);
        fprintf(o, "      %-26s %6" PRIu64 "  first %s (frame %" PRIu64 ")  last %s (frame %" PRIu64 ")\n", name,
                e->replies, t1, e->first_frame, t2, e->last_frame);
    }
    if (f->other_bits) fprintf(o, "      undefined bits 0x%08x\n", f->other_bits);
}

void report_sessions_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec,
                          const struct ns_report_filter *flt)
{
    size_t n = ns_analyzer_session_count(a), shown = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ns_session_view *s = ns_analyzer_session(a, i);
        shown += filter_shows_session(flt, s->sessionid, s->has_client, s->clientid);
    }
    fprintf(o, "\n%s (%zu)\n", sec->title, shown);
    for (size_t i = 0; i < n; i++) {
        const struct ns_session_view *s = ns_analyzer_session(a, i);
        if (!filter_shows_session(flt, s->sessionid, s->has_client, s->clientid)) continue;
        char sid[2 * NS_SESSIONID_LEN + 1], id[NS_CONN_NAME_LEN];
        ns_hex_str(s->sessionid, NS_SESSIONID_LEN, sid, sizeof sid);
        fprintf(o, "  session %s", sid);
        if (s->has_client) fprintf(o, "  client %016" PRIx64, s->clientid);
        if (s->mid_capture) fputs("  (first seen mid-capture: no CREATE_SESSION)", o);
        if (s->destroyed) fprintf(o, "  destroyed (frame %" PRIu64 ")", s->destroy_frame);
        fputc('\n', o);
        dead_text(o, s);
        if (s->create_call_frame)
            fprintf(o, "    CREATE_SESSION frames %" PRIu64 "/%" PRIu64 " on %s  csa_sequence %u  flags 0x%x asked, 0x%x granted\n",
                    s->create_call_frame, s->create_reply_frame, ns_conn_name(s->create_conn, id, sizeof id),
                    s->csa_sequence, s->flags_requested, s->flags_granted);
        chan_text(o, "fore", s, &s->fore_requested, &s->fore_granted);
        chan_text(o, "back", s, &s->back_requested, &s->back_granted);
        back_channel_text(o, a, s);
        fprintf(o, "    connections %u%s%s%s\n", s->nconns, s->nconnect ? "  (nconnect: several to one server address)" : "",
                s->trunked ? "  (session trunking: several server addresses)" : "",
                s->back_same ? "  back channel on the fore channel's connection" : "");
        struct ns_session_conn_totals tot;
        ns_session_conn_totals(s, &tot);
        for (uint32_t k = 0; k < s->nconns; k++) {
            const struct ns_session_conn *c = &s->conns[k];
            fprintf(o, "      %-5s %-29s %-5s calls %6" PRIu64 " (%5.1f%%)  bytes %10" PRIu64 " (%5.1f%%)",
                    ns_conn_name(c->conn_id, id, sizeof id), ns_bind_method_phrase(c->method),
                    ns_channels_name(c->fore, c->back), c->calls, ns_percent((double)c->calls, (double)tot.calls),
                    c->bytes, ns_percent((double)c->bytes, (double)tot.bytes));
            const char *dr = ns_chan_dir_name(c->dir_requested, true), *dg = ns_chan_dir_name(c->dir_granted, false);
            if (dr || dg) fprintf(o, "  dir %s -> %s", dr ? dr : "?", dg ? dg : "?");
            if (c->cb_calls) fprintf(o, "  callbacks %" PRIu64, c->cb_calls);
            if (c->not_bound_errors) fprintf(o, "  CONN_NOT_BOUND %" PRIu64, c->not_bound_errors);
            fputc('\n', o);
        }
        if (s->conns_dropped) fprintf(o, "      (%u more connections not listed)\n", s->conns_dropped);
        fprintf(o, "    slots  used up to %s%u  granted now %u", s->any_slot_used ? "" : "-", s->highest_slot_used,
                s->granted_slots);
        fprintf(o, "  max outstanding %u  all granted slots busy %.1f%% of the time, %.1f%% of calls\n", s->max_outstanding,
                100.0 * s->saturated_fraction, 100.0 * s->saturated_calls_fraction);
        if (s->has_seq_reply) {
            fprintf(o, "    server slot limits (sr_highest_slotid/target):");
            for (uint32_t k = 0; k < s->nhistory; k++) {
                char t[NS_TIME_STRLEN];
                ns_clock_str(s->history[k].ts_ns, t, sizeof t);
                fprintf(o, " %u/%u@%s", s->history[k].highest_slotid, s->history[k].target_highest_slotid, t);
            }
            if (s->history_dropped) fprintf(o, " (+%" PRIu64 " changes)", s->history_dropped);
            fputc('\n', o);
        }
        status_flags_text(o, s);
        fprintf(o, "    calls %" PRIu64 "  replies %" PRIu64 "  errors %" PRIu64, s->calls, s->replies, s->errors);
        if (s->cb_calls) fprintf(o, "  callbacks %" PRIu64, s->cb_calls);
        fputc('\n', o);
        fputs("    ops", o);
        for (uint32_t op = 0; op < NS_SESSION_OPS; op++)
            if (s->ops[op] && op != 53) fprintf(o, "  %s %" PRIu64, ns_session_op_name(op), s->ops[op]); /* SEQUENCE: in every one */
        fputc('\n', o);
        if (s->nstatus) {
            fputs("    error statuses", o);
            for (uint32_t k = 0; k < s->nstatus; k++)
                fprintf(o, "  %s %" PRIu64, ns_nfs4_status_name(s->status[k].status), s->status[k].count);
            fputc('\n', o);
        }
    }
    const struct ns_session_stats *st = ns_analyzer_session_stats(a);
    if (st->sessions_evicted || st->clients_evicted || st->files_evicted || st->rules_dropped)
        fprintf(o, "  (memory cap: evicted %" PRIu64 " sessions, %" PRIu64 " clients, %" PRIu64
                   " READ_PLUS files; %" PRIu64 " rule checks dropped)\n",
                st->sessions_evicted, st->clients_evicted, st->files_evicted, st->rules_dropped);
}

void report_read_plus_text(FILE *o, ns_analyzer *a, const struct ns_section_info *sec)
{
    const struct ns_read_bytes *r = ns_analyzer_read_totals(a);
    fprintf(o, "\n%s\n", sec->title);
    fprintf(o, "  %-42s %8s %6s %12s %6s %12s %8s %12s\n", "file handle", "rp", "dseg", "data bytes", "hseg", "hole bytes",
            "read", "read bytes");
    const struct ns_read_file *const *v;
    size_t n = ns_analyzer_read_files(a, &v);
    for (size_t i = 0; i < n; i++) {
        const struct ns_read_bytes *f = &v[i]->r;
        if (!f->read_plus_replies) continue;
        char h[41]; /* 40 columns: longer handles end in "..." */
        ns_hex_str(v[i]->fh.data, v[i]->fh.len, h, sizeof h);
        fprintf(o, "  %-42s %8" PRIu64 " %6" PRIu64 " %12" PRIu64 " %6" PRIu64 " %12" PRIu64 " %8" PRIu64 " %12" PRIu64 "\n", h,
                f->read_plus_replies, f->data_segments, f->data_bytes, f->hole_segments, f->hole_bytes, f->read_replies,
                f->read_bytes);
    }
    fprintf(o, "  %-42s %8" PRIu64 " %6" PRIu64 " %12" PRIu64 " %6" PRIu64 " %12" PRIu64 " %8" PRIu64 " %12" PRIu64 "\n", "all files",
            r->read_plus_replies, r->data_segments, r->data_bytes, r->hole_segments, r->hole_bytes, r->read_replies,
            r->read_bytes);
    uint64_t tot = r->data_bytes + r->hole_bytes;
    fprintf(o, "  READ_PLUS: %.1f%% of the bytes were holes; plain READ returned %" PRIu64 " bytes\n",
            ns_percent((double)r->hole_bytes, (double)tot),
            r->read_bytes);
}

/* ---- JSON ---- */

static void ku(FILE *o, const char *k, uint64_t v) { fprintf(o, ",\"%s\":%" PRIu64, k, v); }

static void back_channel_json(FILE *o, const ns_analyzer *a, const struct ns_session_view *s);

static void chan_json(FILE *o, const ns_analyzer *a, const char *name, const struct ns_session_view *s,
                      const struct nfs4_chan_attrs *rq, const struct nfs4_chan_attrs *gr, bool back)
{
    fprintf(o, ",\"%s\":{", name);
    static const char *const keys[] = {"max_requests", "max_request_size", "max_response_size", "max_response_size_cached",
                                       "max_operations"};
    for (int side = 0; side < 2; side++) {
        const struct nfs4_chan_attrs *c = side ? gr : rq;
        bool have = side ? s->has_granted : s->has_requested;
        uint32_t vals[5] = {c->maxrequests, c->maxrequestsize, c->maxresponsesize, c->maxresponsesize_cached, c->maxoperations};
        for (int k = 0; k < 5; k++) {
            fprintf(o, "%s\"%s_%s\":", side || k ? "," : "", side ? "granted" : "requested", keys[k]);
            if (have) fprintf(o, "%u", vals[k]); else fputs("null", o);
        }
    }
    if (back) {
        fprintf(o, ",\"same\":%s", s->back_same ? "true" : "false");
        back_channel_json(o, a, s);
    }
    fputc('}', o);
}

static void clients_json(FILE *o, const ns_analyzer *a, const struct ns_report_filter *flt)
{
    size_t n = ns_analyzer_client_count(a);
    bool first = true;
    fputs(",\"clients\":[", o);
    for (size_t i = 0; i < n; i++) {
        const struct ns_client_view *c = ns_analyzer_client(a, i);
        if (!filter_shows_client(flt, c->clientid)) continue;
        fprintf(o, "%s{\"clientid\":\"%016" PRIx64 "\",\"from_exchange_id\":%s", first ? "" : ",", c->clientid,
                c->from_exchange_id ? "true" : "false");
        first = false;
        fputs(",\"owner\":", o);
        if (c->from_exchange_id) json_str(o, (const char *)c->owner, c->owner_len); else fputs("null", o);
        fprintf(o, ",\"owner_truncated\":%s", c->owner_len < c->owner_wire_len ? "true" : "false");
        fputs(",\"state_protect\":", o);
        if (c->from_exchange_id) json_cstr(o, ns_state_protect_name(c->sp_granted)); else fputs("null", o);
        fputs(",\"state_protect_requested\":", o);
        if (c->from_exchange_id) json_cstr(o, ns_state_protect_name(c->sp_requested)); else fputs("null", o);
        ku(o, "eir_sequenceid", c->eir_sequenceid);
        ku(o, "eir_flags", c->eir_flags);
        fputs(",\"server_owner\":", o);
        json_str(o, (const char *)c->server_major, c->server_major_len);
        ku(o, "server_minor_id", c->server_minor_id);
        fputs(",\"server_scope\":", o);
        json_str(o, (const char *)c->scope, c->scope_len);
        fputs(",\"server\":", o);
        if (c->server.addr.family) {
            char ep[NS_ENDPOINT_STRLEN];
            ns_endpoint_str(&c->server, ep, sizeof ep);
            json_cstr(o, ep);
        } else {
            fputs("null", o);
        }
        ku(o, "server_addrs", c->server_addrs);
        fprintf(o, ",\"server_trunking\":%s", c->server_addrs > 1 ? "true" : "false");
        fputs(",\"replaces_clientid\":", o);
        if (c->replaces_clientid) fprintf(o, "\"%016" PRIx64 "\"", c->replaces_clientid); else fputs("null", o);
        fputs(",\"connection\":", o);
        json_conn(o, c->conn_id);
        fputs(",\"exchange_id_frames\":[", o);
        if (c->exchange_call_frame) fprintf(o, "%" PRIu64 ",%" PRIu64, c->exchange_call_frame, c->exchange_reply_frame);
        fputs("],\"first_ts\":", o);
        json_ts(o, c->first_ts_ns);
        fputs(",\"last_ts\":", o);
        json_ts(o, c->last_ts_ns);
        ku(o, "sessions", c->sessions);
        ku(o, "grace_replies", c->grace_replies);
        ku(o, "reclaim_complete_ok", c->reclaim_complete_ok);
        ku(o, "reclaim_complete_failed", c->reclaim_complete_failed);
        report_deleg_json(o, c);
        fputc('}', o);
    }
    fputc(']', o);
}

static void frames_pair(FILE *o, const char *key, uint64_t a, uint64_t b)
{
    fprintf(o, ",\"%s\":[", key);
    if (a) fprintf(o, "%" PRIu64 ",%" PRIu64, a, b);
    fputc(']', o);
}

static void dead_json(FILE *o, const struct ns_session_view *s)
{
    const char *d = ns_session_dead_name(s->dead);
    fprintf(o, ",\"never_created\":%s,\"dead\":", s->never_created ? "true" : "false");
    if (d) json_cstr(o, d); else fputs("null", o);
    fputs(",\"dead_frame\":", o);
    if (s->dead_frame) fprintf(o, "%" PRIu64, s->dead_frame); else fputs("null", o);
    ku(o, "badsession_replies", s->badsession_replies);
    frames_pair(o, "badsession_frames", s->badsession_first_frame, s->badsession_last_frame);
    ku(o, "calls_after_dead", s->calls_after_dead);
    frames_pair(o, "calls_after_dead_frames", s->after_dead_first_frame, s->after_dead_last_frame);
    fputs(",\"recovered_frame\":", o);
    if (s->recovered_frame) fprintf(o, "%" PRIu64, s->recovered_frame); else fputs("null", o);
}

/* Inside sessions[].back_channel, after the CREATE_SESSION attributes. */
static void back_channel_json(FILE *o, const ns_analyzer *a, const struct ns_session_view *s)
{
    const struct ns_back_channel *b = s->back_channel;
    if (!b) return;
    fputs(",\"slots_asked\":", o);
    if (s->has_requested) fprintf(o, "%u", b->slots_asked); else fputs("null", o);
    fputs(",\"slots_granted\":", o);
    if (s->has_granted) fprintf(o, "%u", b->slots_granted); else fputs("null", o);
    ku(o, "granted_now", b->granted_now);
    fputs(",\"csr_highest_slotid\":", o);
    if (b->has_cb_reply) fprintf(o, "%u,\"csr_target_highest_slotid\":%u", b->csr_highest_slotid,
                                 b->csr_target_highest_slotid);
    else fputs("null,\"csr_target_highest_slotid\":null", o);
    ku(o, "backchannel_ctl", b->backchannel_ctl);
    ku(o, "calls", b->calls);
    ku(o, "replies", b->replies);
    ku(o, "unanswered", b->unanswered);
    ku(o, "resends", b->resends);
    fputs(",\"highest_slot_used\":", o);
    if (b->any_slot_used) fprintf(o, "%u", b->highest_slot_used); else fputs("null", o);
    ku(o, "outstanding", b->outstanding);
    ku(o, "max_outstanding", b->max_outstanding);
    ku(o, "untracked_calls", b->slot_ids_untracked);
    ku(o, "calls_on_unbound_connections", b->calls_unbound_conn);
    fputs(",\"verdicts\":{", o);
    bool first = true;
    for (uint32_t v = 1; v < NS_CB_VERDICTS; v++) {
        if (!b->verdicts[v]) continue;
        fprintf(o, "%s\"%s\":%" PRIu64, first ? "" : ",", ns_slot_verdict_name((uint8_t)v), b->verdicts[v]);
        first = false;
    }
    fputs("},\"connections\":[", o);
    first = true;
    for (uint32_t k = 0; k < s->nconns; k++) {
        const struct ns_session_conn *c = &s->conns[k];
        if (!c->back && !c->cb_calls) continue;
        const struct ns_conn *cn = ns_analyzer_conn(a, c->conn_id);
        fputs(first ? "{\"id\":" : ",{\"id\":", o);
        json_conn(o, c->conn_id);
        fprintf(o, ",\"bound\":%s,\"callbacks\":%" PRIu64 ",\"closed\":%s}", c->back ? "true" : "false", c->cb_calls,
                cn && cn->closed ? "true" : "false");
        first = false;
    }
    fputc(']', o);
    ku(o, "errors", b->errors);
    fputs(",\"error_statuses\":{", o);
    for (uint32_t k = 0; k < b->nstatus; k++) {
        fputs(k ? "," : "", o);
        json_cstr(o, ns_nfs4_status_name(b->status[k].status));
        fprintf(o, ":%" PRIu64, b->status[k].count);
    }
    fputs("},\"table\":[", o);
    first = true;
    for (uint32_t k = 0; k < b->nslots; k++) {
        const struct ns_slot_view *sl = &b->slots[k];
        if (!sl->used) continue;
        fprintf(o, "%s{\"slot\":%u,\"calls\":%" PRIu64 ",\"last_call_seqid\":%u,\"last_ok_seqid\":", first ? "" : ",", k,
                sl->calls, sl->last_call_seqid);
        if (sl->has_ok) fprintf(o, "%u", sl->last_ok_seqid); else fputs("null", o);
        fprintf(o, ",\"in_flight\":%s}", sl->in_flight ? "true" : "false");
        first = false;
    }
    fputc(']', o);
}

/* sessions[].status_flags: FLAG_NAME -> replies carrying it; and the timeline. */
static void status_flags_json(FILE *o, const struct ns_session_view *s)
{
    const struct ns_status_flags *f = s->status_flags;
    fputs(",\"status_flags\":{", o);
    bool first = true;
    for (uint32_t bit = 0; f && bit < NS_STATUS_FLAGS; bit++) {
        if (!f->flag[bit].replies) continue;
        const char *name = ns_status_flag_name(bit);
        if (name) fprintf(o, "%s\"%s\":%" PRIu64, first ? "" : ",", name, f->flag[bit].replies);
        else fprintf(o, "%s\"bit%u\":%" PRIu64, first ? "" : ",", bit, f->flag[bit].replies);
        first = false;
    }
    fputs("},\"status_flags_timeline\":{", o);
    if (f) fprintf(o, "\"seq_replies\":%" PRIu64 ",\"flagged_replies\":%" PRIu64 ",\"undefined_bits\":%u,\"flags\":[",
                   f->seq_replies, f->flagged_replies, f->other_bits);
    first = true;
    for (uint32_t bit = 0; f && bit < NS_STATUS_FLAGS; bit++) {
        const struct ns_status_flag *e = &f->flag[bit];
        if (!e->replies) continue;
        const char *name = ns_status_flag_name(bit);
        fprintf(o, "%s{\"bit\":%u,\"name\":", first ? "" : ",", bit);
        if (name) json_cstr(o, name); else fputs("null", o);
        fprintf(o, ",\"replies\":%" PRIu64 ",\"first_ts\":", e->replies);
        json_ts(o, e->first_ts_ns);
        fprintf(o, ",\"first_frame\":%" PRIu64 ",\"last_ts\":", e->first_frame);
        json_ts(o, e->last_ts_ns);
        fprintf(o, ",\"last_frame\":%" PRIu64 "}", e->last_frame);
        first = false;
    }
    if (f) fputc(']', o);
    fputc('}', o);
}

static void session_json(FILE *o, const ns_analyzer *a, const struct ns_session_view *s)
{
    fputs("{\"sessionid\":", o);
    json_hex(o, s->sessionid, 16);
    fputs(",\"clientid\":", o);
    if (s->has_client) fprintf(o, "\"%016" PRIx64 "\"", s->clientid); else fputs("null", o);
    fprintf(o, ",\"mid_capture\":%s,\"destroyed\":%s", s->mid_capture ? "true" : "false", s->destroyed ? "true" : "false");
    dead_json(o, s);
    fputs(",\"create_session_frames\":[", o);
    if (s->create_call_frame) fprintf(o, "%" PRIu64 ",%" PRIu64, s->create_call_frame, s->create_reply_frame);
    fputs("],\"csa_sequence\":", o);
    if (s->has_requested) fprintf(o, "%u", s->csa_sequence); else fputs("null", o);
    fputs(",\"first_ts\":", o);
    json_ts(o, s->first_ts_ns);
    fputs(",\"last_ts\":", o);
    json_ts(o, s->last_ts_ns);
    fputs(",\"connections\":[", o);
    for (uint32_t k = 0; k < s->nconns; k++) {
        if (k) fputc(',', o);
        json_conn(o, s->conns[k].conn_id);
    }
    fputs("],\"connection_details\":[", o);
    struct ns_session_conn_totals tot;
    ns_session_conn_totals(s, &tot);
    for (uint32_t k = 0; k < s->nconns; k++) {
        const struct ns_session_conn *c = &s->conns[k];
        fputs(k ? ",{\"id\":" : "{\"id\":", o);
        json_conn(o, c->conn_id);
        fputs(",\"bound_by\":", o);
        if (c->method == NS_BIND_NONE) fputs("null", o); else json_cstr(o, ns_bind_method_name(c->method));
        fprintf(o, ",\"fore\":%s,\"back\":%s", c->fore ? "true" : "false", c->back ? "true" : "false");
        const char *dr = ns_chan_dir_name(c->dir_requested, true), *dg = ns_chan_dir_name(c->dir_granted, false);
        fputs(",\"dir_requested\":", o);
        if (dr) json_cstr(o, dr); else fputs("null", o);
        fputs(",\"dir_granted\":", o);
        if (dg) json_cstr(o, dg); else fputs("null", o);
        fputs(",\"bind_frame\":", o);
        if (c->bind_frame) fprintf(o, "%" PRIu64, c->bind_frame); else fputs("null", o);
        ku(o, "calls", c->calls);
        ku(o, "bytes", c->bytes);
        fprintf(o, ",\"calls_share\":%.4f,\"bytes_share\":%.4f", ns_share((double)c->calls, (double)tot.calls),
                ns_share((double)c->bytes, (double)tot.bytes));
        ku(o, "callbacks", c->cb_calls);
        ku(o, "conn_not_bound_errors", c->not_bound_errors);
        fputc('}', o);
    }
    fprintf(o, "],\"connections_not_listed\":%u,\"nconnect\":%s,\"session_trunking\":%s", s->conns_dropped,
            s->nconnect ? "true" : "false", s->trunked ? "true" : "false");
    fprintf(o, ",\"flags_requested\":%u,\"flags_granted\":%u", s->flags_requested, s->flags_granted);
    chan_json(o, a, "fore_channel", s, &s->fore_requested, &s->fore_granted, false);
    chan_json(o, a, "back_channel", s, &s->back_requested, &s->back_granted, true);
    status_flags_json(o, s);
    fputs(",\"slots\":{\"highest_used\":", o);
    if (s->any_slot_used) fprintf(o, "%u", s->highest_slot_used); else fputs("null", o);
    ku(o, "granted", s->granted_slots);
    ku(o, "max_outstanding", s->max_outstanding);
    fprintf(o, ",\"saturated_fraction\":%.6f,\"saturated_calls_fraction\":%.6f", s->saturated_fraction,
            s->saturated_calls_fraction);
    ku(o, "saturated_calls", s->saturated_calls);
    fputs(",\"outstanding_histogram\":[", o);
    int last = -1;
    for (int k = 0; k < NS_OUTSTANDING_HIST; k++)
        if (s->outstanding_hist[k]) last = k;
    for (int k = 0; k <= last; k++) fprintf(o, "%s%" PRIu64, k ? "," : "", s->outstanding_hist[k]);
    fputs("],\"sr_highest_slotid\":", o);
    if (s->has_seq_reply) fprintf(o, "%u,\"target_highest_slotid\":%u", s->sr_highest_slotid, s->target_highest_slotid);
    else fputs("null,\"target_highest_slotid\":null", o);
    fputs(",\"history\":[", o);
    for (uint32_t k = 0; k < s->nhistory; k++) {
        fputs(k ? ",{\"ts\":" : "{\"ts\":", o);
        json_ts(o, s->history[k].ts_ns);
        fprintf(o, ",\"frame\":%" PRIu64 ",\"highest_slotid\":%u,\"target_highest_slotid\":%u}", s->history[k].frame,
                s->history[k].highest_slotid, s->history[k].target_highest_slotid);
    }
    fputs("]", o);
    ku(o, "history_dropped", s->history_dropped);
    ku(o, "untracked_calls", s->slot_ids_untracked);
    fputs(",\"table\":[", o);
    bool first = true;
    for (uint32_t k = 0; k < s->nslots; k++) {
        const struct ns_slot_view *sl = &s->slots[k];
        if (!sl->used) continue;
        fprintf(o, "%s{\"slot\":%u,\"calls\":%" PRIu64 ",\"last_call_seqid\":%u,\"last_ok_seqid\":", first ? "" : ",", k,
                sl->calls, sl->last_call_seqid);
        if (sl->has_ok) fprintf(o, "%u", sl->last_ok_seqid); else fputs("null", o);
        fprintf(o, ",\"in_flight\":%s}", sl->in_flight ? "true" : "false");
        first = false;
    }
    fputs("]}", o);
    ku(o, "calls", s->calls);
    ku(o, "replies", s->replies);
    ku(o, "errors", s->errors);
    ku(o, "callbacks", s->cb_calls);
    fputs(",\"ops\":{", o);
    first = true;
    for (uint32_t op = 0; op < NS_SESSION_OPS; op++) {
        if (!s->ops[op]) continue;
        fputs(first ? "" : ",", o);
        json_cstr(o, ns_session_op_name(op));
        fprintf(o, ":%" PRIu64, s->ops[op]);
        first = false;
    }
    fputs("},\"error_statuses\":{", o);
    for (uint32_t k = 0; k < s->nstatus; k++) {
        fputs(k ? "," : "", o);
        json_cstr(o, ns_nfs4_status_name(s->status[k].status));
        fprintf(o, ":%" PRIu64, s->status[k].count);
    }
    fputs("}}", o);
}

static void read_json(FILE *o, const struct ns_read_bytes *r)
{
    fprintf(o,
            "\"read_plus_replies\":%" PRIu64 ",\"data_segments\":%" PRIu64 ",\"data_bytes\":%" PRIu64
            ",\"hole_segments\":%" PRIu64 ",\"hole_bytes\":%" PRIu64 ",\"read_replies\":%" PRIu64 ",\"read_bytes\":%" PRIu64,
            r->read_plus_replies, r->data_segments, r->data_bytes, r->hole_segments, r->hole_bytes, r->read_replies,
            r->read_bytes);
}

void report_sessions_json(FILE *o, ns_analyzer *a, const struct ns_report_filter *flt)
{
    clients_json(o, a, flt);
    fputs(",\"sessions\":[", o);
    size_t n = ns_analyzer_session_count(a);
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        const struct ns_session_view *s = ns_analyzer_session(a, i);
        if (!filter_shows_session(flt, s->sessionid, s->has_client, s->clientid)) continue;
        if (!first) fputc(',', o);
        first = false;
        session_json(o, a, s);
    }
    fputs("],\"read_plus\":{", o);
    read_json(o, ns_analyzer_read_totals(a));
    fputs(",\"files\":[", o);
    const struct ns_read_file *const *v;
    size_t nf = ns_analyzer_read_files(a, &v);
    for (size_t i = 0; i < nf; i++) {
        fputs(i ? ",{\"fh\":" : "{\"fh\":", o);
        json_hex(o, v[i]->fh.data, v[i]->fh.len);
        fputc(',', o);
        read_json(o, &v[i]->r);
        fputc('}', o);
    }
    const struct ns_session_stats *st = ns_analyzer_session_stats(a);
    fprintf(o, "]},\"session_evictions\":{\"clients\":%" PRIu64 ",\"sessions\":%" PRIu64 ",\"read_files\":%" PRIu64
               ",\"rules_dropped\":%" PRIu64 ",\"delegations\":%" PRIu64 "}",
            st->clients_evicted, st->sessions_evicted, st->files_evicted, st->rules_dropped, st->delegations_evicted);
}
