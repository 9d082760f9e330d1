// A C++ front end of the installed libraries (tests/api/cxx_frontend.sh
// builds it with g++ and pkg-config alone): the headers' extern "C" blocks
// give the C names (without them every call is an undefined, mangled
// symbol), NS_CONFIG_INIT is C++, and every read goes through a const
// handle (a C++ compiler refuses a const pointer where a mutable one is
// asked for). Prints figures the script checks against tshark, then the
// report's RPC section, which must be the installed nfsscope's.
//   cxx_frontend CAPTURE
#include <pcap/pcap.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include <nfsscope/events.h>
#include <nfsscope/findings.h>
#include <nfsscope/msg.h>
#include <nfsscope/names.h>
#include <nfsscope/nfs_types.h>
#include <nfsscope/nfsscope.h>
#include <nfsscope/report.h>
#include <nfsscope/session.h>
#include <nfsscope/stats.h>
#include <nfsscope/txn.h>
#include <nfsscope/udp_timing.h>
#include <nfsscope/view.h>

namespace {

struct counts {
    uint64_t txns = 0;
    std::map<std::string, uint64_t> events; // by ns_event_kind_name
};

// What a front end reads, through a handle it cannot change the analyzer with.
void print_figures(const ns_analyzer *ro, const counts &c)
{
    const ns_stats *st = ns_analyzer_stats(ro);
    std::printf("frames %llu\n", (unsigned long long)st->frames);
    std::printf("rpc_calls %llu\n", (unsigned long long)st->rpc_calls);
    std::printf("rpc_replies %llu\n", (unsigned long long)st->rpc_replies);
    std::printf("connections %zu\n", ns_analyzer_conn_count(ro));
    std::printf("txns %llu\n", (unsigned long long)c.txns);
    for (const auto &e : c.events) std::printf("event %s %llu\n", e.first.c_str(), (unsigned long long)e.second);
    const ns_finding *const *f = nullptr;
    size_t nf = ns_analyzer_findings(ro, &f);
    std::printf("findings %zu%s%s\n", nf, nf ? " first " : "", nf ? ns_severity_name(f[0]->severity) : "");
    std::printf("sessions %zu udp_pairs %zu\n", ns_analyzer_session_count(ro), ns_analyzer_udp_pair_count(ro));
    ns_section_info sec[NS_SECTIONS];
    ns_report_sections(ro, sec);
    std::printf("section %s rows %zu\n", sec[NS_SECTION_CONNECTIONS].title, sec[NS_SECTION_CONNECTIONS].rows);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: cxx_frontend CAPTURE\n");
        return 2;
    }
    ns_config cfg = NS_CONFIG_INIT;
    char err[NS_ERRBUF_SIZE];
    ns_analyzer *a = ns_analyzer_new(&cfg, err, sizeof err);
    if (!a) {
        std::fprintf(stderr, "cxx_frontend: %s\n", err);
        return 1;
    }
    counts c;
    ns_analyzer_on_txn(a, [](void *ctx, const ns_txn *) { static_cast<counts *>(ctx)->txns++; }, &c);
    ns_analyzer_on_event(
        a, [](void *ctx, const ns_event *ev) { static_cast<counts *>(ctx)->events[ns_event_kind_name(ev->kind)]++; },
        &c);
    char eb[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, eb);
    if (!p) {
        std::fprintf(stderr, "cxx_frontend: %s: %s\n", argv[1], eb);
        ns_analyzer_free(a);
        return 1;
    }
    pcap_pkthdr *h;
    const u_char *d;
    uint64_t n = 0;
    while (pcap_next_ex(p, &h, &d) == 1) {
        ns_frame fr = {++n, (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec, h->caplen, h->len, pcap_datalink(p), d};
        ns_analyzer_feed(a, &fr);
    }
    pcap_close(p);
    ns_analyzer_finish(a);
    print_figures(a, c);
    std::printf("--- RPC section\n");
    std::fflush(stdout);
    ns_report_section_text(stdout, a, NS_SECTION_RPC);
    ns_analyzer_free(a);
    return 0;
}
