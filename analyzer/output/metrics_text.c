/* The Prometheus text exposition of the analyzer's state (doc/metrics.md).
 * Base units (seconds, bytes), counters end in _total, every label value set
 * bounded: sessions and UDP pairs beyond a cap are folded into "other".
 * Rows are sorted, no timestamps: the same capture gives the same file. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "nfsscope/view.h"

static void head(FILE *f, const char *name, const char *type, const char *help)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value: backslash, double quote and newline escaped. */
static void val(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '\\' || *s == '"') { fputc('\\', f); fputc(*s, f); }
        else if (*s == '\n') fputs("\\n", f);
        else fputc(*s, f);
    }
    fputc('"', f);
}

static void sec(FILE *f, int64_t ns) { fprintf(f, " %.9g\n", (double)ns / 1e9); }

static void capture(FILE *f, ns_analyzer *a, const struct out_capture *c)
{
    const struct ns_stats *st = ns_analyzer_stats(a);
    head(f, "nfsscope_info", "gauge", "nfsscope's version and source (always 1).");
    fprintf(f, "nfsscope_info{version=");
    val(f, ns_version());
    fprintf(f, ",source=");
    val(f, c->source ? c->source : "");
    fprintf(f, ",live=\"%s\"} 1\n", c->live ? "true" : "false");
    head(f, "nfsscope_capture_frames_total", "counter", "Frames analysed.");
    fprintf(f, "nfsscope_capture_frames_total %" PRIu64 "\n", st->frames);
    head(f, "nfsscope_capture_bytes_total", "counter", "Bytes of the analysed frames on the wire.");
    fprintf(f, "nfsscope_capture_bytes_total %" PRIu64 "\n", st->bytes);
    head(f, "nfsscope_capture_drops_total", "counter",
         "Frames dropped before nfsscope saw them (libpcap: by the kernel ring, by the interface); 0 for a file.");
    fprintf(f, "nfsscope_capture_drops_total{where=\"interface\"} %" PRIu64 "\n", c->interface_drops);
    fprintf(f, "nfsscope_capture_drops_total{where=\"kernel\"} %" PRIu64 "\n", c->kernel_drops);
    head(f, "nfsscope_rpc_outstanding_calls", "gauge", "RPC calls sent and not yet answered or given up.");
    fprintf(f, "nfsscope_rpc_outstanding_calls %" PRIu32 "\n", ns_analyzer_outstanding_calls(a));
    head(f, "nfsscope_rpc_retransmissions_total", "counter", "RPC calls sent again (same XID), any transport.");
    fprintf(f, "nfsscope_rpc_retransmissions_total %" PRIu64 "\n", st->rpc_retransmissions);
}

struct call_row { char server[NS_ENDPOINT_STRLEN]; const char *prog; uint32_t vers; const char *op; uint64_t n; };

static int call_cmp(const void *x, const void *y)
{
    const struct call_row *a = x, *b = y;
    int c = strcmp(a->server, b->server);
    if (!c) c = strcmp(a->prog, b->prog);
    if (!c && a->vers != b->vers) c = a->vers < b->vers ? -1 : 1;
    return c ? c : strcmp(a->op, b->op);
}

static int calls(FILE *f, const struct series *s)
{
    head(f, "nfsscope_rpc_calls_total", "counter",
         "RPC calls (first transmissions) by server, program, version and operation (NFSv4: the COMPOUND's main operation).");
    struct call_row *rows = calloc(s->nkeys + 1, sizeof *rows);
    if (!rows) return -1;
    size_t n = 0;
    for (unsigned i = 0; i < SERIES_CALL_KEYS; i++) {
        const struct series_call_key *k = &s->keys[i];
        if (!k->used) continue;
        struct call_row *r = &rows[n++];
        if (k->server < SERIES_SERVERS) ns_endpoint_str(&s->server[k->server], r->server, sizeof r->server);
        else snprintf(r->server, sizeof r->server, "other");
        r->prog = ns_rpc_prog_name(k->prog);
        r->vers = k->vers;
        r->op = k->op;
        r->n = k->calls;
    }
    qsort(rows, n, sizeof *rows, call_cmp);
    for (size_t i = 0; i < n; i++) {
        fputs("nfsscope_rpc_calls_total{server=", f);
        val(f, rows[i].server);
        fputs(",program=", f);
        val(f, rows[i].prog);
        fprintf(f, ",version=\"%" PRIu32 "\",op=", rows[i].vers);
        val(f, rows[i].op);
        fprintf(f, "} %" PRIu64 "\n", rows[i].n);
    }
    if (s->calls_other)
        fprintf(f, "nfsscope_rpc_calls_total{server=\"other\",program=\"other\",version=\"0\",op=\"other\"} %" PRIu64 "\n",
                s->calls_other);
    free(rows);
    return 0;
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool is_bytes(const char *key)
{
    size_t n = strlen(key);
    return n >= 5 && strcmp(key + n - 5, "bytes") == 0;
}

/* What could not be analysed, by cause (the report's "Not analysed"): every
 * cause always listed, so a rate() over it never starts from nothing. The
 * labels are the JSON report's keys; byte counts have families of their own. */
static void not_analysed(FILE *f, const struct ns_stats *st)
{
    struct ns_loss_row rows[NS_LOSS_ROWS];
    size_t n = ns_loss_rows(st, rows, NS_LOSS_ROWS);
    const char *sorted[NS_LOSS_ROWS];
    static const char *const fam[4] = {"nfsscope_not_analysed_total", "nfsscope_not_analysed_bytes_total",
                                       "nfsscope_evicted_total", "nfsscope_evicted_bytes_total"};
    static const char *const help[4] = {
        "Frames, segments, messages, flows or calls the capture did not let nfsscope analyse, by cause (the report's "
        "\"Not analysed\"; lost=\"false\": recovered or a note).",
        "Bytes the capture did not let nfsscope analyse, by cause (the report's \"Not analysed\").",
        "What the memory cap made nfsscope drop, by what.", "Bytes the memory cap made nfsscope drop, by what."};
    for (int g = 0; g < 4; g++) {
        head(f, fam[g], "counter", help[g]);
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (rows[i].group == g / 2 && is_bytes(rows[i].key) == (g & 1)) sorted[k++] = rows[i].key;
        qsort(sorted, k, sizeof *sorted, by_name);
        for (size_t j = 0; j < k; j++)
            for (size_t i = 0; i < n; i++)
                if (rows[i].group == g / 2 && rows[i].key == sorted[j]) {
                    fprintf(f, "%s{cause=", fam[g]);
                    val(f, rows[i].key);
                    fprintf(f, ",lost=\"%s\"} %" PRIu64 "\n", rows[i].lost ? "true" : "false", rows[i].value);
                    break;
                }
    }
}

static void replies(FILE *f, const struct series *s)
{
    head(f, "nfsscope_rpc_replies_total", "counter",
         "RPC replies by status: the NFS (or MOUNT) status, else the RPC accept or reject status.");
    const char *names[SERIES_REPLY_STATUS + 1];
    unsigned n = 0;
    for (unsigned i = 0; i <= SERIES_REPLY_STATUS; i++)
        if (s->reply_status[i].name && s->reply_status[i].count) names[n++] = s->reply_status[i].name;
    qsort(names, n, sizeof *names, by_name);
    for (unsigned j = 0; j < n; j++)
        for (unsigned i = 0; i <= SERIES_REPLY_STATUS; i++)
            if (s->reply_status[i].name == names[j]) {
                fputs("nfsscope_rpc_replies_total{status=", f);
                val(f, names[j]);
                fprintf(f, "} %" PRIu64 "\n", s->reply_status[i].count);
                break;
            }
}

static int lat_cmp(const void *x, const void *y)
{
    const struct series_latency *a = *(const struct series_latency *const *)x, *b = *(const struct series_latency *const *)y;
    return strcmp(a->op, b->op);
}

static void latency(FILE *f, const struct series *s)
{
    head(f, "nfsscope_rpc_latency_seconds", "histogram", "RPC latency (call to reply) by operation.");
    const struct series_latency *rows[SERIES_LAT_OPS + 1];
    unsigned n = 0;
    for (unsigned i = 0; i <= SERIES_LAT_OPS; i++)
        if (s->lat[i].count) rows[n++] = &s->lat[i];
    qsort(rows, n, sizeof *rows, lat_cmp);
    for (unsigned j = 0; j < n; j++) {
        const struct series_latency *l = rows[j];
        uint64_t cum = 0;
        for (unsigned i = 0; i < SERIES_PROM_BUCKETS; i++) {
            cum += l->le[i];
            fputs("nfsscope_rpc_latency_seconds_bucket{op=", f);
            val(f, l->op);
            fprintf(f, ",le=\"%g\"} %" PRIu64 "\n", series_prom_le[i], cum);
        }
        fputs("nfsscope_rpc_latency_seconds_bucket{op=", f);
        val(f, l->op);
        fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n", l->count);
        fputs("nfsscope_rpc_latency_seconds_sum{op=", f);
        val(f, l->op);
        fprintf(f, "} %.9g\n", (double)l->sum_ns / 1e9);
        fputs("nfsscope_rpc_latency_seconds_count{op=", f);
        val(f, l->op);
        fprintf(f, "} %" PRIu64 "\n", l->count);
    }
}

struct kind_row { const char *kind; uint8_t sev; uint64_t findings, occurrences; };

static int kind_cmp(const void *x, const void *y)
{
    const struct kind_row *a = x, *b = y;
    int c = strcmp(a->kind, b->kind);
    return c ? c : (int)a->sev - (int)b->sev;
}

static int findings(FILE *f, ns_analyzer *a)
{
    const struct ns_finding *const *all;
    size_t n = ns_analyzer_findings(a, &all), nr = 0;
    struct kind_row *rows = calloc(n + 1, sizeof *rows);
    if (!rows) return -1;
    for (size_t i = 0; i < n; i++) {
        size_t j;
        for (j = 0; j < nr; j++)
            if (rows[j].sev == all[i]->severity && strcmp(rows[j].kind, all[i]->kind) == 0) break;
        if (j == nr) rows[nr++] = (struct kind_row){all[i]->kind, all[i]->severity, 0, 0};
        rows[j].findings++;
        rows[j].occurrences += all[i]->count;
    }
    qsort(rows, nr, sizeof *rows, kind_cmp);
    head(f, "nfsscope_findings_total", "counter", "Findings (diagnoses, doc/findings.md) by kind and severity.");
    for (size_t j = 0; j < nr; j++) {
        fputs("nfsscope_findings_total{kind=", f);
        val(f, rows[j].kind);
        fprintf(f, ",severity=\"%s\"} %" PRIu64 "\n", ns_severity_name(rows[j].sev), rows[j].findings);
    }
    head(f, "nfsscope_finding_occurrences_total", "counter", "Occurrences folded into the findings, by kind and severity.");
    for (size_t j = 0; j < nr; j++) {
        fputs("nfsscope_finding_occurrences_total{kind=", f);
        val(f, rows[j].kind);
        fprintf(f, ",severity=\"%s\"} %" PRIu64 "\n", ns_severity_name(rows[j].sev), rows[j].occurrences);
    }
    head(f, "nfsscope_findings_dropped_total", "counter", "Findings not kept: the finding table was full.");
    fprintf(f, "nfsscope_findings_dropped_total %" PRIu64 "\n", ns_analyzer_findings_dropped(a));
    free(rows);
    return 0;
}

/* Sessions labelled: live ones first (not destroyed nor refused with NFS4ERR_BADSESSION), then the most recently active, then by id. */
static int sess_cmp(const void *x, const void *y)
{
    const struct ns_session_view *a = *(const struct ns_session_view *const *)x,
                                 *b = *(const struct ns_session_view *const *)y;
    bool ad = a->destroyed || a->dead != NS_SESS_ALIVE, bd = b->destroyed || b->dead != NS_SESS_ALIVE;
    if (ad != bd) return ad ? 1 : -1; /* dead: destroyed, or unknown to the server */
    if (a->last_ts_ns != b->last_ts_ns) return a->last_ts_ns > b->last_ts_ns ? -1 : 1;
    return memcmp(a->sessionid, b->sessionid, NS_SESSIONID_LEN);
}

static int sess_id_cmp(const void *x, const void *y)
{
    return memcmp((*(const struct ns_session_view *const *)x)->sessionid,
                  (*(const struct ns_session_view *const *)y)->sessionid, NS_SESSIONID_LEN);
}

struct sess_fig { uint64_t granted, requested, outstanding; int64_t saturated_ns; };

static int sessions(FILE *f, ns_analyzer *a)
{
    size_t n = ns_analyzer_session_count(a);
    const struct ns_session_view **v = calloc(n + 1, sizeof *v);
    if (!v) return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if ((v[m] = ns_analyzer_session(a, i))) m++;
    qsort(v, m, sizeof *v, sess_cmp);
    size_t shown = m < METRICS_SESSIONS ? m : METRICS_SESSIONS;
    struct sess_fig other = {0};
    for (size_t i = shown; i < m; i++) {
        other.granted += v[i]->granted_slots;
        other.requested += v[i]->has_requested ? v[i]->fore_requested.maxrequests : 0;
        other.outstanding += v[i]->outstanding;
        other.saturated_ns += v[i]->saturated_ns;
    }
    qsort(v, shown, sizeof *v, sess_id_cmp);
    static const struct { const char *name, *type, *help; } m4[] = {
        {"nfsscope_session_fore_slots_granted", "gauge", "NFSv4.1+ session: fore-channel slots the server grants now."},
        {"nfsscope_session_fore_slots_requested", "gauge", "NFSv4.1+ session: fore-channel slots CREATE_SESSION asked for (0: not captured)."},
        {"nfsscope_session_outstanding", "gauge", "NFSv4.1+ session: requests in flight now."},
        {"nfsscope_session_saturated_seconds_total", "counter", "NFSv4.1+ session: time with every granted slot busy."},
    };
    for (unsigned k = 0; k < 4; k++) {
        head(f, m4[k].name, m4[k].type, m4[k].help);
        for (size_t i = 0; i < shown; i++) {
            char id[2 * NS_SESSIONID_LEN + 1];
            ns_hex_str(v[i]->sessionid, NS_SESSIONID_LEN, id, sizeof id);
            fprintf(f, "%s{session=\"%s\"}", m4[k].name, id);
            if (k == 0) fprintf(f, " %" PRIu32 "\n", v[i]->granted_slots);
            else if (k == 1) fprintf(f, " %" PRIu32 "\n", v[i]->has_requested ? v[i]->fore_requested.maxrequests : 0);
            else if (k == 2) fprintf(f, " %" PRIu32 "\n", v[i]->outstanding);
            else sec(f, v[i]->saturated_ns);
        }
        if (m > shown) {
            fprintf(f, "%s{session=\"other\"}", m4[k].name);
            uint64_t x = k == 0 ? other.granted : k == 1 ? other.requested : other.outstanding;
            if (k == 3) sec(f, other.saturated_ns);
            else fprintf(f, " %" PRIu64 "\n", x);
        }
    }
    head(f, "nfsscope_sessions", "gauge", "NFSv4.1+ sessions known (labelled ones and those folded into \"other\").");
    fprintf(f, "nfsscope_sessions %zu\n", m);
    free(v);
    return 0;
}

static void pair_labels(FILE *f, const struct ns_udp_pair *p)
{
    char cl[NS_ENDPOINT_STRLEN], sv[NS_ENDPOINT_STRLEN];
    ns_addr_str(&p->client, cl, sizeof cl);
    ns_endpoint_str(&p->server, sv, sizeof sv);
    fprintf(f, "client=\"%s\",server=\"%s\"", cl, sv);
}

static void udp(FILE *f, ns_analyzer *a)
{
    size_t n = ns_analyzer_udp_pair_count(a), shown = n < METRICS_PAIRS ? n : METRICS_PAIRS;
    struct ns_udp_totals other = {0};
    uint64_t other_major = 0;
    for (size_t i = shown; i < n; i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
        struct ns_udp_totals t;
        ns_udp_pair_totals(p, &t);
        other.retransmissions += t.retransmissions;
        other_major += p->major_timeouts;
    }
    head(f, "nfsscope_udp_retransmissions_total", "counter", "RPC over UDP: calls sent again, by client and server.");
    for (size_t i = 0; i < shown; i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
        struct ns_udp_totals t;
        ns_udp_pair_totals(p, &t);
        fputs("nfsscope_udp_retransmissions_total{", f);
        pair_labels(f, p);
        fprintf(f, "} %" PRIu64 "\n", t.retransmissions);
    }
    if (n > shown)
        fprintf(f, "nfsscope_udp_retransmissions_total{client=\"other\",server=\"other\"} %" PRIu64 "\n", other.retransmissions);
    head(f, "nfsscope_udp_major_timeouts_total", "counter",
         "RPC over UDP: resends where a Linux client starts its timeout over (major timeout).");
    for (size_t i = 0; i < shown; i++) {
        const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
        fputs("nfsscope_udp_major_timeouts_total{", f);
        pair_labels(f, p);
        fprintf(f, "} %" PRIu64 "\n", p->major_timeouts);
    }
    if (n > shown)
        fprintf(f, "nfsscope_udp_major_timeouts_total{client=\"other\",server=\"other\"} %" PRIu64 "\n", other_major);
    static const char *const names[2] = {"nfsscope_udp_rto_seconds", "nfsscope_udp_srtt_seconds"};
    static const char *const help[2] = {
        "RPC over UDP: retransmit timeout a Linux client computes now, by pair and timer class (other: the fixed timeout).",
        "RPC over UDP: smoothed RTT of the Linux estimator, by pair and timer class."};
    for (unsigned k = 0; k < 2; k++) {
        head(f, names[k], "gauge", help[k]);
        for (size_t i = 0; i < shown; i++) {
            const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
            for (unsigned t = 0; t < NS_UDP_TIMERS; t++) {
                const struct ns_udp_class *c = &p->cls[t];
                int64_t x = k ? c->srtt_ns : c->rto_ns;
                if (!ns_udp_class_used(c) || x <= 0) continue;
                fprintf(f, "%s{", names[k]);
                pair_labels(f, p);
                fprintf(f, ",timer=\"%s\"}", ns_udp_timer_name(t));
                sec(f, x);
            }
        }
    }
}

static int pool_cmp(const void *x, const void *y)
{
    return strcmp((*(const struct ns_mem_pool *const *)x)->name, (*(const struct ns_mem_pool *const *)y)->name);
}

static void memory(FILE *f, ns_analyzer *a)
{
    struct ns_mem_pool pools[NS_MEM_POOLS];
    size_t n = ns_analyzer_memory(a, pools, NS_MEM_POOLS);
    if (n > NS_MEM_POOLS) n = NS_MEM_POOLS;
    const struct ns_mem_pool *p[NS_MEM_POOLS];
    for (size_t i = 0; i < n; i++) p[i] = &pools[i];
    qsort(p, n, sizeof *p, pool_cmp);
    head(f, "nfsscope_memory_bytes", "gauge", "Memory the analyzer's tables use now, by pool.");
    for (size_t i = 0; i < n; i++) fprintf(f, "nfsscope_memory_bytes{pool=\"%s\"} %" PRIu64 "\n", p[i]->name, p[i]->used);
    head(f, "nfsscope_memory_cap_bytes", "gauge", "The memory cap of each pool (--memcap shared out).");
    for (size_t i = 0; i < n; i++) fprintf(f, "nfsscope_memory_cap_bytes{pool=\"%s\"} %" PRIu64 "\n", p[i]->name, p[i]->cap);
    head(f, "nfsscope_memory_evictions_total", "counter", "Entries the memory cap evicted, by pool (in the pool's own unit).");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "nfsscope_memory_evictions_total{pool=\"%s\",unit=\"%s\"} %" PRIu64 "\n", p[i]->name,
                p[i]->evictions_unit, p[i]->evictions);
}

int metrics_write(FILE *f, ns_analyzer *a, const struct series *s, const struct out_capture *c)
{
    ns_analyzer_settle(a);
    capture(f, a, c);
    not_analysed(f, ns_analyzer_stats(a));
    if (calls(f, s) != 0) return -1;
    replies(f, s);
    latency(f, s);
    if (findings(f, a) != 0 || sessions(f, a) != 0) return -1;
    udp(f, a);
    memory(f, a);
    return ferror(f) ? -1 : 0;
}
