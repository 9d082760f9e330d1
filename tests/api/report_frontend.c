/* A front end of the installed libraries alone: built by report_frontend.sh
 * with nothing but `pkg-config --cflags --libs nfsscope-report` (the
 * installed include directory and archives) and libpcap, it reads a capture
 * into the core and prints with the report library what `nfsscope -r`
 * prints:
 *   report_frontend CAPTURE text|json    the whole report
 *   report_frontend CAPTURE sessions|findings|operations ...
 *                                        one section (ns_report_section_text)
 *   report_frontend CAPTURE txn          the transaction log */
#define _DEFAULT_SOURCE /* libpcap's headers use u_int, u_char ... */
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include <nfsscope/nfsscope.h>
#include <nfsscope/report.h>

static const char *const g_sections[NS_SECTIONS] = {
    [NS_SECTION_RPC] = "rpc", [NS_SECTION_CONNECTIONS] = "connections", [NS_SECTION_OPERATIONS] = "operations",
    [NS_SECTION_STATUS] = "status", [NS_SECTION_CLIENTS] = "clients", [NS_SECTION_SESSIONS] = "sessions",
    [NS_SECTION_UDP] = "udp", [NS_SECTION_READ_PLUS] = "read_plus", [NS_SECTION_FINDINGS] = "findings",
    [NS_SECTION_NOT_ANALYSED] = "not_analysed",
};

struct log {
    const ns_analyzer *a;
};

static void on_txn(void *ctx, const struct ns_txn *t)
{
    const struct log *l = ctx;
    ns_report_txn_line(stdout, l->a, t);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: report_frontend CAPTURE text|json|txn|SECTION\n");
        return 2;
    }
    const char *what = argv[2];
    char perr[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, perr);
    if (!p) { fprintf(stderr, "%s\n", perr); return 1; }
    struct ns_config cfg = NS_CONFIG_INIT;
    bool txn = !strcmp(what, "txn");
    cfg.txn_order = txn ? NS_ORDER_CALL : NS_ORDER_COMPLETION;
    char err[NS_ERRBUF_SIZE];
    ns_analyzer *a = ns_analyzer_new(&cfg, err, sizeof err);
    if (!a) { fprintf(stderr, "%s\n", err); pcap_close(p); return 1; }
    struct log log = {a};
    /* the Other RPC programs table sees every transaction, as in the program */
    ns_report_programs *pg = ns_report_programs_new(txn ? on_txn : NULL, &log);
    if (!pg) { fprintf(stderr, "out of memory\n"); ns_analyzer_free(a); pcap_close(p); return 1; }
    ns_analyzer_on_txn(a, ns_report_programs_on_txn, pg);
    struct pcap_pkthdr *h;
    const unsigned char *d;
    uint64_t n = 0;
    int dlt = pcap_datalink(p);
    while (pcap_next_ex(p, &h, &d) == 1) {
        struct ns_frame f = {++n, (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec, h->caplen, h->len, dlt, d};
        ns_analyzer_feed(a, &f);
    }
    pcap_close(p);
    ns_analyzer_finish(a);
    struct ns_report_info ri = NS_REPORT_INFO_INIT;
    ri.source = argv[1];
    ri.programs = pg;
    int rc = 0;
    if (!strcmp(what, "text")) ns_report_text(stdout, a, &ri);
    else if (!strcmp(what, "json")) ns_report_json(stdout, a, &ri);
    else if (!txn) {
        int s = 0;
        while (s < NS_SECTIONS && !(g_sections[s] && !strcmp(g_sections[s], what))) s++;
        if (s < NS_SECTIONS) ns_report_section_text(stdout, a, (enum ns_section)s);
        else { fprintf(stderr, "no section %s\n", what); rc = 2; }
    }
    ns_report_programs_free(pg);
    ns_analyzer_free(a);
    return rc;
}
