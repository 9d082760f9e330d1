/* Who and what in the report (doc/who.md): the top files (paths rebuilt
 * from the wire), users and client addresses in the text report (by time
 * spent), every row in JSON (files[], users[], clients_by_address[], who{};
 * by calls, then key: an order that does not depend on timing, so a live
 * capture's report lists them as the file's does). Whole-capture
 * tables: under --client/--session/... narrowing they are left out. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json_write.h"
#include "nfsscope/who.h"
#include "report_int.h"
#include "text_table.h"

#define WHO_TOP 10

static const char *sort_name(enum ns_who_sort by)
{
    switch (by) {
    case NS_WHO_BY_BYTES: return "bytes";
    case NS_WHO_BY_ERRORS: return "errors";
    case NS_WHO_BY_CALLS: return "calls";
    default: return "time spent";
    }
}

static void addr_str(const struct ns_addr *a, char *buf, size_t n)
{
    if (!inet_ntop(a->family == 6 ? AF_INET6 : AF_INET, a->a, buf, (socklen_t)n)) snprintf(buf, n, "?");
}

static void hex_str(const uint8_t *b, size_t len, char *buf, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (size_t i = 0; i < len && k + 2 < n; i++) {
        buf[k++] = hex[b[i] >> 4];
        buf[k++] = hex[b[i] & 15];
    }
    buf[k] = 0;
}

static void user_str(const struct ns_who_user *u, char *buf, size_t n)
{
    char h[40];
    switch (u->auth) {
    case NS_WHO_AUTH_SYS: snprintf(buf, n, "uid %" PRIu32 " gid %" PRIu32, u->uid, u->gid); break;
    case NS_WHO_AUTH_GSS:
        hex_str(u->gss_handle, u->gss_handle_len, h, sizeof h);
        snprintf(buf, n, "RPCSEC_GSS context %s", h);
        break;
    default: snprintf(buf, n, "other flavors (AUTH_NONE ...)"); break;
    }
}

/* The latency columns of a table share one unit, from its largest p99. */
static struct time_unit unit_of(const struct ns_who_figures *f, size_t n, size_t stride)
{
    unsigned long long max = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ns_who_figures *x = (const void *)((const char *)f + i * stride);
        if (x->p99_us * 1000 > max) max = x->p99_us * 1000;
    }
    return time_unit_for(max);
}

static void lat_cells(struct table *t, const struct ns_who_figures *f, struct time_unit u, bool p50)
{
    char b[32];
    if (p50) {
        fmt_exact(b, sizeof b, f->answered ? (double)f->p50_us * 1000 : 0, u);
        table_cell(t, "%s", f->answered ? b : "-");
    }
    fmt_exact(b, sizeof b, (double)f->p99_us * 1000, u);
    table_cell(t, "%s", f->answered ? b : "-");
    table_cell(t, "%.3f", (double)f->time_ns / 1e9);
}

static void files_text(FILE *o, const ns_analyzer *a, enum ns_who_sort by)
{
    struct ns_who_file *v = calloc(WHO_TOP, sizeof *v);
    if (!v) return;
    size_t all = ns_analyzer_who_files(a, by, v, WHO_TOP), n = all < WHO_TOP ? all : WHO_TOP;
    fprintf(o, "\nFiles (top %zu of %zu by %s; paths rebuilt from the wire)\n", n, all, sort_name(by));
    struct time_unit u = unit_of(&v[0].f, n, sizeof *v);
    char p99[32], p50[32];
    snprintf(p50, sizeof p50, "p50 %s", u.name);
    snprintf(p99, sizeof p99, "p99 %s", u.name);
    const char *heads[] = {"file", "calls", "read B", "written B", "errors", p50, p99, "time s", "clients", NULL};
    struct table *t = n ? table_new("lrrrrrrrr", heads) : NULL;
    for (size_t i = 0; t && i < n; i++) {
        char path[NS_PATH_STRLEN];
        if (!ns_analyzer_fh_path(a, v[i].fh, v[i].fh_len, path, sizeof path))
            snprintf(path, sizeof path, "<fh %08" PRIx32 ">", ns_fh_hash(v[i].fh, v[i].fh_len));
        table_cell(t, "%s", path);
        table_cell(t, "%" PRIu64, v[i].f.calls);
        table_cell(t, "%" PRIu64, v[i].f.read_bytes);
        table_cell(t, "%" PRIu64, v[i].f.write_bytes);
        table_cell(t, "%" PRIu64, v[i].f.errors);
        lat_cells(t, &v[i].f, u, true);
        table_cell(t, "%" PRIu32 "%s", v[i].clients, v[i].clients_more ? "+" : "");
        table_row_end(t);
    }
    if (t) table_print(t, o, 2);
    free(v);
}

static void users_text(FILE *o, const ns_analyzer *a, enum ns_who_sort by)
{
    struct ns_who_user v[WHO_TOP];
    size_t all = ns_analyzer_who_users(a, by, v, WHO_TOP), n = all < WHO_TOP ? all : WHO_TOP;
    fprintf(o, "\nUsers (top %zu of %zu by %s)\n", n, all, sort_name(by));
    struct time_unit u = unit_of(&v[0].f, n, sizeof *v);
    char p99[32];
    snprintf(p99, sizeof p99, "p99 %s", u.name);
    const char *heads[] = {"user", "calls", "bytes", "errors", p99, "time s", NULL};
    struct table *t = n ? table_new("lrrrrr", heads) : NULL;
    for (size_t i = 0; t && i < n; i++) {
        char who[80];
        user_str(&v[i], who, sizeof who);
        table_cell(t, "%s", who);
        table_cell(t, "%" PRIu64, v[i].f.calls);
        table_cell(t, "%" PRIu64, v[i].f.bytes);
        table_cell(t, "%" PRIu64, v[i].f.errors);
        lat_cells(t, &v[i].f, u, false);
        table_row_end(t);
    }
    if (t) table_print(t, o, 2);
}

static void clients_text(FILE *o, const ns_analyzer *a, enum ns_who_sort by)
{
    struct ns_who_client v[WHO_TOP];
    size_t all = ns_analyzer_who_clients(a, by, v, WHO_TOP), n = all < WHO_TOP ? all : WHO_TOP;
    fprintf(o, "\nClients by address (top %zu of %zu by %s)\n", n, all, sort_name(by));
    struct time_unit u = unit_of(&v[0].f, n, sizeof *v);
    char p99[32];
    snprintf(p99, sizeof p99, "p99 %s", u.name);
    const char *heads[] = {"address", "calls", "bytes", "errors", p99, "time s", NULL};
    struct table *t = n ? table_new("lrrrrr", heads) : NULL;
    for (size_t i = 0; t && i < n; i++) {
        char addr[64];
        addr_str(&v[i].addr, addr, sizeof addr);
        table_cell(t, "%s", addr);
        table_cell(t, "%" PRIu64, v[i].f.calls);
        table_cell(t, "%" PRIu64, v[i].f.bytes);
        table_cell(t, "%" PRIu64, v[i].f.errors);
        lat_cells(t, &v[i].f, u, false);
        table_row_end(t);
    }
    if (t) table_print(t, o, 2);
}

void report_who_text(FILE *o, ns_analyzer *a, const struct ns_report_info *ri)
{
    if (ri->filter) return; /* whole-capture tables */
    struct ns_who_counts c;
    ns_analyzer_who_counts(a, &c);
    if (!c.files && !c.users && !c.clients) return;
    enum ns_who_sort by = NS_WHO_BY_TIME;
    files_text(o, a, by);
    users_text(o, a, by);
    clients_text(o, a, by);
    if (c.files_evicted || c.paths_evicted || c.users_evicted || c.clients_evicted || c.pending_evicted)
        fprintf(o, "  (bounded tables: evicted %" PRIu64 " files, %" PRIu64 " handles of the path map, %" PRIu64
                   " users, %" PRIu64 " client addresses, %" PRIu64 " calls' name steps)\n",
                c.files_evicted, c.paths_evicted, c.users_evicted, c.clients_evicted, c.pending_evicted);
}

static void figures_json(FILE *o, const struct ns_who_figures *f, bool file)
{
    fprintf(o, ",\"calls\":%" PRIu64, f->calls);
    if (file)
        fprintf(o, ",\"read_bytes\":%" PRIu64 ",\"write_bytes\":%" PRIu64, f->read_bytes, f->write_bytes);
    else
        fprintf(o, ",\"bytes\":%" PRIu64, f->bytes);
    fprintf(o, ",\"errors\":%" PRIu64 ",\"time_us\":%" PRIu64, f->errors, f->time_ns / 1000);
    if (f->answered)
        fprintf(o, ",\"p50_us\":%" PRIu64 ",\"p99_us\":%" PRIu64 ",\"max_us\":%" PRIu64, f->p50_us, f->p99_us,
                f->max_us);
    else
        fputs(",\"p50_us\":null,\"p99_us\":null,\"max_us\":null", o);
}

void report_who_json(FILE *o, ns_analyzer *a, const struct ns_report_info *ri)
{
    if (ri->filter) return;
    struct ns_who_counts c;
    ns_analyzer_who_counts(a, &c);
    size_t n = ns_analyzer_who_files(a, NS_WHO_BY_CALLS, NULL, 0);
    struct ns_who_file *f = n ? calloc(n, sizeof *f) : NULL;
    if (f) n = ns_analyzer_who_files(a, NS_WHO_BY_CALLS, f, n);
    fputs(",\"files\":[", o);
    for (size_t i = 0; f && i < n; i++) {
        char hex[2 * NS_FH_MAX + 1], path[NS_PATH_STRLEN];
        hex_str(f[i].fh, f[i].fh_len, hex, sizeof hex);
        fprintf(o, "%s{\"fh\":\"%s\",\"fh_hash\":\"%08" PRIx32 "\",\"path\":", i ? "," : "", hex,
                ns_fh_hash(f[i].fh, f[i].fh_len));
        if (ns_analyzer_fh_path(a, f[i].fh, f[i].fh_len, path, sizeof path)) json_cstr(o, path);
        else fputs("null", o);
        figures_json(o, &f[i].f, true);
        fprintf(o, ",\"bytes\":%" PRIu64 ",\"clients\":%" PRIu32 ",\"clients_more\":%s}", f[i].f.bytes,
                f[i].clients, f[i].clients_more ? "true" : "false");
    }
    free(f);
    n = ns_analyzer_who_users(a, NS_WHO_BY_CALLS, NULL, 0);
    struct ns_who_user *u = n ? calloc(n, sizeof *u) : NULL;
    if (u) n = ns_analyzer_who_users(a, NS_WHO_BY_CALLS, u, n);
    fputs("],\"users\":[", o);
    for (size_t i = 0; u && i < n; i++) {
        static const char *const auth[] = {"other", "sys", "gss", "other"};
        fprintf(o, "%s{\"auth\":\"%s\"", i ? "," : "", auth[u[i].auth < 4 ? u[i].auth : 0]);
        if (u[i].auth == NS_WHO_AUTH_SYS) fprintf(o, ",\"uid\":%" PRIu32 ",\"gid\":%" PRIu32, u[i].uid, u[i].gid);
        else fputs(",\"uid\":null,\"gid\":null", o);
        fputs(",\"gss_context\":", o);
        if (u[i].auth == NS_WHO_AUTH_GSS) json_hex(o, u[i].gss_handle, u[i].gss_handle_len);
        else fputs("null", o);
        figures_json(o, &u[i].f, false);
        fputc('}', o);
    }
    free(u);
    n = ns_analyzer_who_clients(a, NS_WHO_BY_CALLS, NULL, 0);
    struct ns_who_client *cl = n ? calloc(n, sizeof *cl) : NULL;
    if (cl) n = ns_analyzer_who_clients(a, NS_WHO_BY_CALLS, cl, n);
    fputs("],\"clients_by_address\":[", o);
    for (size_t i = 0; cl && i < n; i++) {
        char addr[64];
        addr_str(&cl[i].addr, addr, sizeof addr);
        fprintf(o, "%s{\"address\":\"%s\"", i ? "," : "", addr);
        figures_json(o, &cl[i].f, false);
        fputc('}', o);
    }
    free(cl);
    fprintf(o, "],\"who\":{\"files\":%" PRIu64 ",\"files_evicted\":%" PRIu64 ",\"users\":%" PRIu64
               ",\"users_evicted\":%" PRIu64 ",\"clients\":%" PRIu64 ",\"clients_evicted\":%" PRIu64
               ",\"path_map_handles\":%" PRIu64 ",\"path_map_evicted\":%" PRIu64 ",\"name_steps_evicted\":%" PRIu64
               ",\"txns_unattributed\":%" PRIu64 "}",
            c.files, c.files_evicted, c.users, c.users_evicted, c.clients, c.clients_evicted, c.paths,
            c.paths_evicted, c.pending_evicted, c.txns_unattributed);
}
