/* Which sections a report has, in what order, and how many rows each. */
#include "nfsscope/view.h"

static size_t op_count(const struct ns_stats *st)
{
    size_t n = 0;
    for (uint32_t k = 0; k < NS_OPKEY_MAX; k++)
        if (st->ops[k] && (st->ops[k]->count || st->ops[k]->in_compounds)) n++;
    return n;
}

/* Connections still listed (a closed one the memory cap dropped is not). */
static size_t conns_kept(const ns_analyzer *a)
{
    size_t n = 0, last = ns_analyzer_conn_count(a);
    for (uint32_t id = 1; id <= last; id++) n += ns_analyzer_conn(a, id) != NULL;
    return n;
}

static size_t read_plus_files(const ns_analyzer *a)
{
    const struct ns_read_file *const *v;
    size_t n = ns_analyzer_read_files(a, &v), k = 0;
    for (size_t i = 0; i < n; i++) k += v[i]->r.read_plus_replies != 0;
    return k;
}

void ns_report_sections(const ns_analyzer *a, struct ns_section_info out[NS_SECTIONS])
{
    const struct ns_stats *st = ns_analyzer_stats(a);
    const struct ns_finding *const *f;
    /* optional sections are left out when empty: most captures have no
     * NFSv4.1 sessions, no UDP, no READ_PLUS */
    static const struct { const char *title; bool optional; } sec[NS_SECTIONS] = {
        [NS_SECTION_CAPTURE] = {"Capture", false},       [NS_SECTION_RPC] = {"RPC", false},
        [NS_SECTION_CONNECTIONS] = {"Connections", false}, [NS_SECTION_OPERATIONS] = {"Operations", false},
        [NS_SECTION_STATUS] = {"NFS status", false},     [NS_SECTION_CLIENTS] = {"Clients", true},
        [NS_SECTION_SESSIONS] = {"Sessions", true},      [NS_SECTION_UDP] = {"UDP transport", true},
        [NS_SECTION_READ_PLUS] = {"READ_PLUS", true},    [NS_SECTION_FINDINGS] = {"Findings", false},
        [NS_SECTION_NOT_ANALYSED] = {"Not analysed", false},
    };
    size_t rows[NS_SECTIONS] = {
        [NS_SECTION_CONNECTIONS] = conns_kept(a),
        [NS_SECTION_OPERATIONS] = op_count(st),
        [NS_SECTION_STATUS] = st->nstatus,
        [NS_SECTION_CLIENTS] = ns_analyzer_client_count(a),
        [NS_SECTION_SESSIONS] = ns_analyzer_session_count(a),
        [NS_SECTION_UDP] = ns_analyzer_udp_pair_count(a),
        [NS_SECTION_READ_PLUS] = read_plus_files(a),
        [NS_SECTION_FINDINGS] = ns_analyzer_findings(a, &f),
    };
    for (int s = 0; s < NS_SECTIONS; s++)
        out[s] = (struct ns_section_info){(enum ns_section)s, sec[s].title, rows[s], !sec[s].optional || rows[s] > 0};
    /* the totals outlive files evicted by the memory cap */
    out[NS_SECTION_READ_PLUS].shown = ns_analyzer_read_totals(a)->read_plus_replies > 0;
}
