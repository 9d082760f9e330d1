/* The "Two points" section and JSON two_point (--peer; nfsscope/two_point.h,
 * doc/two-points.md, doc/json-report.md). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_write.h"
#include "nfsscope/names.h"
#include "report_int.h"
#include "text_table.h"

/* ---- text ---- */

/* "v3 ACCESS", "v4 OPEN", "MOUNT v3 MNT" into buf. */
static const char *op_str(const struct ns_tp_row *r, char *buf, size_t n)
{
    if (r->op_key != UINT32_MAX) {
        uint32_t k = r->op_key;
        const char *v = k >= 2000 && k < 3000 ? "v3" : (k >= 1000 && k < 2000) || k == NS_OPKEY_CBNULL ? "v4 cb" : "v4";
        snprintf(buf, n, "%s %s", v, ns_op_key_name(k));
    } else {
        const char *p = ns_rpc_proc_name(r->prog, r->vers, r->proc);
        if (p) snprintf(buf, n, "%s v%u %s", ns_rpc_prog_name(r->prog), r->vers, p);
        else snprintf(buf, n, "%s v%u proc %u", ns_rpc_prog_name(r->prog), r->vers, r->proc);
    }
    return buf;
}

/* An endpoint's address alone ("10.0.0.1", "fd00::1") in buf. */
static const char *addr_str(const struct ns_endpoint *e, char *buf, size_t n)
{
    ns_endpoint_str(e, buf, n);
    char *colon = strrchr(buf, ':');
    if (colon) *colon = 0;
    if (buf[0] != '[') return buf;
    char *end = strchr(buf, ']');
    if (end) *end = 0;
    return buf + 1;
}

/* Signed duration, 3 significant figures past the unit chosen by size. */
static void span_str(char *b, size_t n, double ns)
{
    double a = fabs(ns);
    if (a >= 1e9) snprintf(b, n, "%+.6f s", ns / 1e9);
    else if (a >= 1e6) snprintf(b, n, "%+.3f ms", ns / 1e6);
    else snprintf(b, n, "%+.3f us", ns / 1e3);
}

static void offset_text(FILE *o, const struct ns_tp_result *r)
{
    char a[48], lo[48], hi[48];
    if (r->offset_known) {
        span_str(a, sizeof a, (double)r->offset_ns);
        span_str(lo, sizeof lo, (double)r->offset_lo_ns);
        span_str(hi, sizeof hi, (double)r->offset_hi_ns);
        fprintf(o, "  clock offset (server - client) at the client capture's start: %s, within %s .. %s\n", a, lo, hi);
        fprintf(o, "  drift: %+.3f ppm, within ", r->drift_ppm);
        if (r->drift_lo_open) fputs("(not bounded)", o); else fprintf(o, "%+.3f", r->drift_lo_ppm);
        fputs(" .. ", o);
        if (r->drift_hi_open) fputs("(not bounded)", o); else fprintf(o, "%+.3f", r->drift_hi_ppm);
        fputs(" ppm\n", o);
    } else if (r->clock_jump) {
        fprintf(o, "  clock offset: no line fits every matched transaction: a capture's clock jumped"
                   " (%.6f s into the client capture)\n", (double)(r->jump_at_ns - r->client_first_ns) / 1e9);
    } else {
        fputs("  clock offset: not known (no transaction with its call and reply in both captures)\n", o);
    }
}

static void only_text(FILE *o, const char *which, const char *other, const struct ns_tp_only *x)
{
    fprintf(o, "  only in the %s capture: %" PRIu64 " calls (%" PRIu64 " outside the %s capture's span, %" PRIu64
               " unexplained), %" PRIu64 " frames (%" PRIu64 " outside its span, %" PRIu64 " lost between, %" PRIu64
               " unexplained)\n",
            which, x->calls, x->calls_outside_span, other, x->calls_unexplained, x->frames, x->frames_outside_span,
            x->frames_lost_between, x->frames_unexplained);
}

static int64_t row_max(const struct ns_tp_row *rows, size_t n)
{
    int64_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ns_tp_latency *l[3] = {&rows[i].client_lat, &rows[i].server_lat, &rows[i].network_lat};
        for (int k = 0; k < 3; k++)
            if (l[k]->count && llabs(l[k]->p99_ns) > m) m = llabs(l[k]->p99_ns);
    }
    return m;
}

static void lat_cells(struct table *t, const struct ns_tp_latency *l, struct time_unit u)
{
    char b[32];
    if (!l->count) { table_cell(t, "-"); table_cell(t, "-"); return; }
    fmt_exact(b, sizeof b, (double)l->p50_ns, u);
    table_cell(t, "%s", b);
    fmt_exact(b, sizeof b, (double)l->p99_ns, u);
    table_cell(t, "%s", b);
}

enum rows_kind { ROWS_OPS, ROWS_CONNS, ROWS_CLIENTS };

static void cell_p(struct table *t, const struct ns_tp_latency *l, bool p99, struct time_unit u)
{
    char b[32];
    if (!l->count) { table_cell(t, "-"); return; }
    fmt_exact(b, sizeof b, (double)(p99 ? l->p99_ns : l->p50_ns), u);
    table_cell(t, "%s", b);
}

/* Operations: p50 and p99 of each part. Connections and clients (narrower,
 * for their longer names): the medians, the network's p99 (where loss
 * shows) and, when there is loss, the frames lost each way. */
static void rows_text(FILE *o, const char *title, const struct ns_tp_row *rows, size_t n, enum rows_kind kind)
{
    if (!n) return;
    struct time_unit u = time_unit_for((unsigned long long)row_max(rows, n));
    fprintf(o, "\n  %s (%s)\n", title, u.name);
    bool lost = false; /* the loss columns only when there is loss */
    for (size_t i = 0; i < n; i++) lost |= rows[i].lost_to_server || rows[i].lost_to_client;
    const char *first = kind == ROWS_OPS ? "operation" : kind == ROWS_CONNS ? "connection" : "client";
    const char *ops_heads[] = {first, "matched", "client p50", "p99", "server p50", "p99", "network p50", "p99", NULL};
    const char *row_heads[] = {first, "matched", "cli p50", "srv p50", "net p50", "net p99", "lost >s", "lost >c", NULL};
    if (!lost) row_heads[6] = NULL;
    struct table *t = kind == ROWS_OPS ? table_new("lrrrrrrr", ops_heads) : table_new("lrrrrrrr", row_heads);
    if (!t) return;
    for (size_t i = 0; i < n; i++) {
        const struct ns_tp_row *r = &rows[i];
        char c[NS_ENDPOINT_STRLEN + 64], s[NS_ENDPOINT_STRLEN];
        if (kind == ROWS_OPS) {
            table_cell(t, "%s", op_str(r, c, sizeof c));
        } else if (kind == ROWS_CONNS) {
            ns_endpoint_str(&r->client, c, sizeof c);
            ns_endpoint_str(&r->server, s, sizeof s);
            table_cell(t, "%s -> %s", c, s);
        } else {
            table_cell(t, "%s", addr_str(&r->client, c, sizeof c));
        }
        table_cell(t, "%" PRIu64, r->count);
        if (kind == ROWS_OPS) {
            lat_cells(t, &r->client_lat, u);
            lat_cells(t, &r->server_lat, u);
            lat_cells(t, &r->network_lat, u);
        } else {
            cell_p(t, &r->client_lat, false, u);
            cell_p(t, &r->server_lat, false, u);
            cell_p(t, &r->network_lat, false, u);
            cell_p(t, &r->network_lat, true, u);
            if (lost) {
                table_cell(t, "%" PRIu64, r->lost_to_server);
                table_cell(t, "%" PRIu64, r->lost_to_client);
            }
        }
        table_row_end(t);
    }
    table_print(t, o, 2);
}

void report_two_point_text(FILE *o, const struct ns_tp_result *r)
{
    fputs("\nTwo points (--peer: the client capture and the server capture of the same traffic)\n", o);
    offset_text(o, r);
    fprintf(o, "  calls: %" PRIu64 " in the client capture, %" PRIu64 " in the server capture, %" PRIu64
               " matched (%" PRIu64 " with the reply in both: split into server and network time)\n",
            r->client_calls, r->server_calls, r->matched_calls, r->split_calls);
    only_text(o, "client", "server", &r->only_client);
    only_text(o, "server", "client", &r->only_server);
    fprintf(o, "  frames lost between the points: %" PRIu64 " to the server, %" PRIu64 " to the client; %" PRIu64
               " transactions were outstanding on their connection when one was lost\n",
            r->lost_to_server, r->lost_to_client, r->delayed_calls);
    if (r->headers_cut[0] || r->headers_cut[1])
        fprintf(o, "  not compared: %" PRIu64 " client and %" PRIu64 " server frames whose TCP header was not captured\n",
                r->headers_cut[0], r->headers_cut[1]);
    if (r->not_recorded_segments || r->not_recorded_txns)
        fprintf(o, "  memory cap: %" PRIu64 " segments and %" PRIu64 " transactions not recorded: counts are partial\n",
                r->not_recorded_segments, r->not_recorded_txns);
    rows_text(o, "Latency split by operation: client-seen = server + network", r->ops, r->nops, ROWS_OPS);
    rows_text(o, "By client", r->clients, r->nclients, ROWS_CLIENTS);
    rows_text(o, "By connection", r->conns, r->nconns, ROWS_CONNS);
    fprintf(o, "\n  Two-point findings (%zu)\n", r->nfindings);
    if (!r->nfindings) fputs("    none\n", o);
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct ns_tp_finding *f = &r->findings[i];
        fprintf(o, "    %-8s %s\n             %s\n", ns_severity_name(f->severity), f->kind, f->message);
    }
}

/* ---- JSON ---- */

static void us(FILE *o, int64_t ns) { fprintf(o, "%.3f", (double)ns / 1000.0); }

static void lat_json(FILE *o, const char *key, const struct ns_tp_latency *l)
{
    fprintf(o, ",\"%s\":", key);
    if (!l->count) { fputs("{\"p50\":null,\"p99\":null}", o); return; }
    fputs("{\"p50\":", o);
    us(o, l->p50_ns);
    fputs(",\"p99\":", o);
    us(o, l->p99_ns);
    fputc('}', o);
}

/* "op":...,"program":...,"version":... of an operation row (NULL: nulls). */
static void op_json(FILE *o, const struct ns_tp_row *r)
{
    fputs("\"op\":", o);
    if (!r) {
        fputs("null,\"program\":null,\"version\":null", o);
    } else if (r->op_key != UINT32_MAX) {
        json_cstr(o, ns_op_key_name(r->op_key));
        fprintf(o, ",\"program\":\"NFS\",\"version\":%d", r->op_key >= 2000 && r->op_key < 3000 ? 3 : 4);
    } else {
        const char *p = ns_rpc_proc_name(r->prog, r->vers, r->proc);
        if (p) json_cstr(o, p); else fprintf(o, "\"%u\"", r->proc);
        fputs(",\"program\":", o);
        json_cstr(o, ns_rpc_prog_name(r->prog));
        fprintf(o, ",\"version\":%u", r->vers);
    }
}

static void row_json(FILE *o, const struct ns_tp_row *r, enum rows_kind kind)
{
    char c[NS_ENDPOINT_STRLEN], s[NS_ENDPOINT_STRLEN];
    if (kind == ROWS_OPS) {
        fputc('{', o);
        op_json(o, r);
    } else {
        ns_endpoint_str(&r->client, c, sizeof c);
        fputs("{\"client\":", o);
        if (kind == ROWS_CLIENTS) {
            json_cstr(o, addr_str(&r->client, c, sizeof c));
        } else {
            json_cstr(o, c);
            ns_endpoint_str(&r->server, s, sizeof s);
            fputs(",\"server\":", o);
            json_cstr(o, s);
        }
    }
    fprintf(o, ",\"count\":%" PRIu64, r->count);
    lat_json(o, "client_us", &r->client_lat);
    lat_json(o, "server_us", &r->server_lat);
    lat_json(o, "network_us", &r->network_lat);
    if (kind != ROWS_OPS)
        fprintf(o, ",\"lost_to_server\":%" PRIu64 ",\"lost_to_client\":%" PRIu64, r->lost_to_server, r->lost_to_client);
    fputc('}', o);
}

static void rows_json(FILE *o, const char *key, const struct ns_tp_row *rows, size_t n, enum rows_kind kind)
{
    fprintf(o, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        if (i) fputc(',', o);
        row_json(o, &rows[i], kind);
    }
    fputc(']', o);
}

static void only_json(FILE *o, const char *key, const struct ns_tp_only *x)
{
    fprintf(o, ",\"%s\":{\"frames\":%" PRIu64 ",\"calls\":%" PRIu64 ",\"frames_outside_span\":%" PRIu64
               ",\"calls_outside_span\":%" PRIu64 ",\"frames_lost_between\":%" PRIu64 ",\"frames_unexplained\":%" PRIu64
               ",\"calls_unexplained\":%" PRIu64 "}",
            key, x->frames, x->calls, x->frames_outside_span, x->calls_outside_span, x->frames_lost_between,
            x->frames_unexplained, x->calls_unexplained);
}

static void ppm_or_null(FILE *o, bool have, double v)
{
    if (have) fprintf(o, "%.6f", v); else fputs("null", o);
}

void report_two_point_json(FILE *o, const struct ns_tp_result *r)
{
    fputs(",\"two_point\":{\"offset_us\":", o);
    if (r->offset_known) {
        us(o, r->offset_ns);
        fputs(",\"offset_bounds_us\":[", o);
        us(o, r->offset_lo_ns);
        fputc(',', o);
        us(o, r->offset_hi_ns);
        fputs("],\"drift_ppm\":", o);
        ppm_or_null(o, true, r->drift_ppm);
        fputs(",\"drift_bounds_ppm\":[", o);
        ppm_or_null(o, !r->drift_lo_open, r->drift_lo_ppm);
        fputc(',', o);
        ppm_or_null(o, !r->drift_hi_open, r->drift_hi_ppm);
        fputc(']', o);
    } else {
        fputs("null,\"offset_bounds_us\":null,\"drift_ppm\":null,\"drift_bounds_ppm\":null", o);
    }
    fprintf(o, ",\"clock_jump\":%s,\"clock_jump_at\":", r->clock_jump ? "true" : "false");
    if (r->clock_jump) json_ts(o, r->jump_at_ns); else fputs("null", o);
    fputs(",\"client_span\":[", o);
    json_ts(o, r->client_first_ns);
    fputc(',', o);
    json_ts(o, r->client_last_ns);
    fputs("],\"server_span\":[", o);
    json_ts(o, r->server_first_ns);
    fputc(',', o);
    json_ts(o, r->server_last_ns);
    fprintf(o, "],\"client_calls\":%" PRIu64 ",\"server_calls\":%" PRIu64 ",\"matched_calls\":%" PRIu64
               ",\"split_calls\":%" PRIu64,
            r->client_calls, r->server_calls, r->matched_calls, r->split_calls);
    only_json(o, "only_client", &r->only_client);
    only_json(o, "only_server", &r->only_server);
    fprintf(o, ",\"lost_between\":{\"to_server\":%" PRIu64 ",\"to_client\":%" PRIu64 ",\"delayed_calls\":%" PRIu64 "}",
            r->lost_to_server, r->lost_to_client, r->delayed_calls);
    fprintf(o, ",\"headers_cut\":{\"client\":%" PRIu64 ",\"server\":%" PRIu64 "}", r->headers_cut[0], r->headers_cut[1]);
    fprintf(o, ",\"not_recorded\":{\"segments\":%" PRIu64 ",\"transactions\":%" PRIu64 "},\"memory_peak_bytes\":%" PRIu64,
            r->not_recorded_segments, r->not_recorded_txns, r->memory_peak);
    rows_json(o, "ops", r->ops, r->nops, ROWS_OPS);
    rows_json(o, "clients", r->clients, r->nclients, ROWS_CLIENTS);
    rows_json(o, "connections", r->conns, r->nconns, ROWS_CONNS);
    fputs(",\"findings\":[", o);
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct ns_tp_finding *f = &r->findings[i];
        fprintf(o, "%s{\"kind\":", i ? "," : "");
        json_cstr(o, f->kind);
        fputs(",\"severity\":", o);
        json_cstr(o, ns_severity_name(f->severity));
        fputc(',', o);
        struct ns_tp_row op = {.op_key = f->op_key, .prog = f->prog, .vers = f->vers, .proc = f->proc};
        op_json(o, f->op_key == UINT32_MAX && !f->prog ? NULL : &op);
        fputs(",\"message\":", o);
        json_cstr(o, f->message);
        fputc('}', o);
    }
    fputs("]}", o);
}
