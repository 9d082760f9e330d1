/* The lifetime rule of nfsscope.h ("Lifetimes"), checked as a front end
 * would lean on it: every 97 frames (and after settle and finish) take every
 * pointer the read calls return, copy what each points at, make every read
 * call again in another order, then check that each held pointer still
 * points at the same bytes. Under ASan a pointer a read call freed or moved
 * is a use-after-free; without it, a changed copy is a failure. Pointers
 * are dropped before the next feed, tick, settle or finish, as the rule
 * says. Every read goes through a const handle: a read call that asked for
 * a mutable analyzer would not compile (-Werror).
 *
 *   check_lifetimes CAPTURE... */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feed_capture.h"
#include "nfsscope/nfsscope.h"
#include "nfsscope/session.h"
#include "nfsscope/udp_timing.h"

static int failures;
#define FAIL(...) (fprintf(stderr, "check_lifetimes: " __VA_ARGS__), fputc('\n', stderr), failures++)

/* A pointer held across read calls and the bytes it pointed at. */
struct held {
    const char *what;
    const void *p;
    size_t len;
    void *copy;
};

struct holds {
    struct held *h;
    size_t n, cap;
};

static void hold(struct holds *hs, const char *what, const void *p, size_t len)
{
    if (!p || !len) return;
    if (hs->n == hs->cap) {
        hs->cap = hs->cap ? hs->cap * 2 : 256;
        hs->h = realloc(hs->h, hs->cap * sizeof *hs->h);
        if (!hs->h) abort();
    }
    void *c = malloc(len);
    if (!c) abort();
    memcpy(c, p, len);
    hs->h[hs->n++] = (struct held){what, p, len, c};
}

static void release(struct holds *hs)
{
    for (size_t i = 0; i < hs->n; i++) free(hs->h[i].copy);
    hs->n = 0;
}

/* Every read call, in one of two orders; what they return is held. */
static void read_all(const ns_analyzer *a, struct holds *hs, int order)
{
    for (int step = 0; step < 7; step++) {
        switch (order ? 6 - step : step) {
        case 0:
            hold(hs, "stats", ns_analyzer_stats(a), sizeof(struct ns_stats));
            break;
        case 1: {
            const struct ns_finding *const *f;
            size_t n = ns_analyzer_findings(a, &f);
            hold(hs, "findings array", f, n * sizeof *f);
            for (size_t i = 0; i < n; i++) {
                hold(hs, "finding", f[i], sizeof *f[i]);
                hold(hs, "finding by id", ns_analyzer_finding(a, f[i]->id), sizeof *f[i]);
            }
            break;
        }
        case 2: {
            const struct ns_finding *const *f;
            size_t n = ns_analyzer_findings_changed(a, 0, &f);
            hold(hs, "changed findings array", f, n * sizeof *f);
            for (size_t i = 0; i < n; i++) hold(hs, "changed finding", f[i], sizeof *f[i]);
            break;
        }
        case 3:
            for (uint32_t id = 1; id <= ns_analyzer_conn_count(a); id++)
                hold(hs, "connection", ns_analyzer_conn(a, id), sizeof(struct ns_conn));
            break;
        case 4:
            for (size_t i = 0; i < ns_analyzer_session_count(a); i++) {
                const struct ns_session_view *s = ns_analyzer_session(a, i);
                hold(hs, "session", s, sizeof *s);
                hold(hs, "session slots", s->slots, s->nslots * sizeof *s->slots);
                hold(hs, "session by id", ns_analyzer_session_by_id(a, s->sessionid), sizeof *s);
            }
            for (size_t i = 0; i < ns_analyzer_client_count(a); i++) {
                const struct ns_client_view *c = ns_analyzer_client(a, i);
                hold(hs, "client", c, sizeof *c);
                hold(hs, "client by id", ns_analyzer_client_by_id(a, c->clientid), sizeof *c);
            }
            hold(hs, "session stats", ns_analyzer_session_stats(a), sizeof(struct ns_session_stats));
            break;
        case 5: {
            const struct ns_read_file *const *rf;
            size_t n = ns_analyzer_read_files(a, &rf);
            hold(hs, "read files array", rf, n * sizeof *rf);
            for (size_t i = 0; i < n; i++) hold(hs, "read file", rf[i], sizeof *rf[i]);
            hold(hs, "read totals", ns_analyzer_read_totals(a), sizeof(struct ns_read_bytes));
            break;
        }
        case 6:
            for (size_t i = 0; i < ns_analyzer_udp_pair_count(a); i++) {
                const struct ns_udp_pair *p = ns_analyzer_udp_pair(a, i);
                hold(hs, "UDP pair", p, sizeof *p);
                hold(hs, "UDP pair by key", ns_analyzer_udp_pair_by_key(a, &p->client, &p->server), sizeof *p);
            }
            break;
        }
    }
}

/* Read everything twice, in both orders; every pointer from the first
 * round must still show its bytes. */
static void check_reads(const ns_analyzer *a, const char *where, uint64_t frame)
{
    struct holds first = {0}, second = {0};
    read_all(a, &first, 0);
    read_all(a, &second, 1);
    read_all(a, &second, 0);
    for (size_t i = 0; i < first.n; i++) {
        const struct held *h = &first.h[i];
        if (memcmp(h->p, h->copy, h->len) != 0) {
            FAIL("%s, frame %" PRIu64 ": a %s changed under a read call", where, frame, h->what);
            break;
        }
    }
    release(&first);
    release(&second);
    free(first.h);
    free(second.h);
}

static void after_frame(void *ctx, ns_analyzer *a, uint64_t n)
{
    const char *path = ctx;
    if (n % 97 == 0) check_reads(a, path, n);
    if (n % 389 == 0) {
        ns_analyzer_settle(a);
        check_reads(a, path, n);
    }
}

static int run(const char *path)
{
    struct ns_config cfg = NS_CONFIG_INIT;
    char err[NS_ERRBUF_SIZE];
    ns_analyzer *a = ns_analyzer_new(&cfg, err, sizeof err);
    if (!a) { fprintf(stderr, "check_lifetimes: %s\n", err); return 1; }
    if (!feed_capture("check_lifetimes", path, a, after_frame, (void *)path)) { ns_analyzer_free(a); return 1; }
    ns_analyzer_finish(a);
    check_reads(a, path, ns_analyzer_stats(a)->frames);
    ns_analyzer_free(a);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) rc |= run(argv[i]);
    if (!failures && !rc) printf("check_lifetimes: %d captures, every held pointer unchanged by read calls\n", argc - 1);
    return rc || failures ? 1 : 0;
}
