/* What could not be analysed, by cause: one table that the text and JSON
 * reports, the HTML page, the metrics and the screen all print, so they
 * agree on what was lost and on when "nothing" is true. */
#include "nfsscope/view.h"

#define NA NS_LOSS_NOT_ANALYSED
#define EV NS_LOSS_EVICTED

/* lost: bytes, frames, messages or records left out of the analysis (or an
 * analysis figure bent by the capture). Not lost: recovered or informative
 * (a retransmitted segment fills nothing that was missing). */
#define ROW(k, l, b, g, lost, opt, v) rows[n++] = (struct ns_loss_row){k, l, b, v, g, lost, opt}

size_t ns_loss_rows(const struct ns_stats *st, struct ns_loss_row *out, size_t cap)
{
    struct ns_loss_row rows[NS_LOSS_ROWS];
    size_t n = 0;
    /* not analysed: JSON keys of API version 4 first, in their order */
    ROW("undecodable_frames", "frames with undecodable link/IP/TCP headers", "bad frames", NA, true, false,
        st->frames_undecodable);
    ROW("tcp_truncated_bytes", "TCP bytes not captured (snapshot length)", "snaplen bytes", NA, true, false,
        st->tcp_truncated_bytes);
    ROW("tcp_gaps", "TCP gaps (bytes never captured)", "gaps", NA, true, false, st->tcp_gaps);
    ROW("tcp_gap_bytes", "TCP gap bytes", "gap bytes", NA, true, false, st->tcp_gap_bytes);
    ROW("tcp_out_of_order", "TCP segments out of order (put back in order)", "out of order", NA, false, false,
        st->tcp_out_of_order);
    ROW("tcp_retransmitted_segments", "TCP segments retransmitted (already captured once)", "TCP resent", NA,
        false, false, st->tcp_retransmitted);
    ROW("record_resyncs", "RPC record resynchronisations", "resyncs", NA, true, false, st->tcp_resyncs);
    ROW("record_bad_marks", "RPC record marks rejected", "bad marks", NA, true, false, st->records_bad_mark);
    ROW("messages_truncated", "RPC messages cut short by missing bytes", "msgs cut", NA, true, false,
        st->decode_truncated);
    ROW("messages_invalid", "RPC messages that did not decode", "msgs invalid", NA, true, false, st->decode_invalid);
    ROW("unknown_nfs4_ops", "COMPOUNDs stopped at an unknown operation", "unknown ops", NA, true, false,
        st->nfs4_unknown_ops);
    ROW("nfs4_ops_cut", "COMPOUNDs with operations not listed (over 1024, or pool full)", "ops cut", NA, true,
        false, st->nfs4_ops_cut);
    ROW("ip_fragments", "IP fragments (reassembled when complete)", "IP fragments", NA, false, false,
        st->ip_fragments);
    ROW("ip_datagrams_incomplete", "IP datagrams missing fragments", "incomplete datagrams", NA, true, false,
        st->ip_fragments_incomplete);
    ROW("calls_cut_by_end", "RPC calls cut off by the end of the capture", "calls cut by end", NA, true, false,
        st->rpc_calls_cut_by_end);
    ROW("nfs2_calls", "NFSv2 calls (not decoded)", "NFSv2 calls", NA, true, false, st->nfs2_calls);
    ROW("udp_not_rpc", "UDP datagrams on an RPC port that are not RPC", "UDP not RPC", NA, true, false,
        st->udp_not_rpc);
    ROW("tcp_syn_ignored", "TCP SYNs inside an established stream (ignored)", "SYNs ignored", NA, true, false,
        st->tcp_syn_ignored);
    ROW("tcp_rst_ignored", "TCP RSTs off the expected sequence (ignored)", "RSTs ignored", NA, true, false,
        st->tcp_rst_ignored);
    ROW("flows_retired_idle",
        "connections silent 10 minutes, no FIN seen (let go; a later segment is a new connection)",
        "idle conns let go", NA, true, false, st->flows_retired_idle);
    /* API version 5: production captures */
    ROW("calls_timed_out", "calls given up unanswered (call timeout)", "calls timed out", NA, false, false,
        st->rpc_calls_timed_out);
    ROW("tcp_flows_not_rpc", "TCP flows given up as not RPC (no RPC record found)", "flows not RPC", NA, true,
        false, st->tcp_flows_not_rpc);
    ROW("tcp_bytes_unsynced", "TCP bytes skipped to find an RPC record (mid-stream, gaps)",
        "bytes skipped", NA, true, false, st->tcp_bytes_unsynced);
    ROW("messages_lost", "RPC messages lost to gaps (record mark or end missing)", "msgs lost", NA,
        true, false, st->rpc_msgs_lost);
    ROW("ip_length_clamped", "IP lengths beyond what the frame holds (clamped)", "bad IP length",
        NA, true, false, st->frames_ip_len_clamped);
    ROW("udp_length_bad", "UDP lengths disagreeing with the IP payload (shorter used)",
        "bad UDP length", NA, true, false, st->frames_udp_len_bad);
    ROW("timestamp_outliers", "frames with a timestamp far out of line (clock kept)",
        "bad timestamps", NA, true, false, st->frames_ts_outliers);
    ROW("timestamp_backwards", "frames stamped earlier than the one before (reordered)",
        "time backwards", NA, false, false, st->frames_ts_backwards);
    ROW("frames_duplicate", "frames captured twice (the copy skipped)", "dup frames", NA, false, false,
        st->frames_duplicate);
    /* evictions: what the memory cap made nfsscope drop */
    ROW("flows", "evicted: flows (memory cap)", "flows evicted", EV, true, false, st->evicted_flows);
    /* every entry the cap forced out of the table of calls: transactions
     * handed out before their turn in call order (nothing lost), and calls
     * still waiting (the next row, the loss) */
    ROW("pending_calls", "evicted: call-table entries forced out early (memory cap)",
        "calls forced out", EV, false, false, st->evicted_pending_calls);
    ROW("outstanding_calls", "  of which calls still waiting for their reply",
        "waiting calls evicted", EV, true, false, st->rpc_calls_outstanding_evicted);
    ROW("reassembly_bytes", "evicted: reassembly bytes (memory cap)", "reassembly evicted", EV, true, false,
        st->evicted_ooo_bytes);
    ROW("op_list_blocks", "refused: blocks for COMPOUND operations past 64 (pool full or memory cap)",
        "op blocks refused", EV, true, false, st->nfs4_ops_refused);
    ROW("ip_fragments", "evicted: IP fragments (memory cap)", "fragments evicted", EV, true, false,
        st->evicted_fragments);
    ROW("connection_messages", "evicted: RPC messages of connections over the cap", "conn msgs evicted", EV, true,
        false, st->evicted_conn_messages);
    ROW("op_counters", "evicted: per-operation counters (memory cap)", "op counters evicted", EV, true, false,
        st->evicted_op_stats);
    ROW("closed_connections", "evicted: closed connections (over 4096 closed, or memory cap)", "closed conns evicted",
        EV, true, true, st->evicted_conns);
    size_t k = n < cap ? n : cap;
    for (size_t i = 0; i < k; i++) out[i] = rows[i];
    return k;
}

bool ns_loss_nothing(const struct ns_stats *st)
{
    struct ns_loss_row rows[NS_LOSS_ROWS];
    size_t n = ns_loss_rows(st, rows, NS_LOSS_ROWS);
    for (size_t i = 0; i < n; i++)
        if (rows[i].lost && rows[i].value) return false;
    return true;
}
