/* Batch loop (see run_batch.h). Intervals: wall time for a live capture
 * (what the person waiting sees), capture time for a file (the same lines
 * on every run, however fast the file is read). */
#include "run_batch.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_outputs.h"
#include "cli_progress.h"
#include "nfsscope/view.h"

#define SEC 1000000000ll
#define TICK_LAG SEC

struct batch {
    ns_analyzer *a;
    struct capture *c;
    uint64_t frames, calls, errors; /* at the last line */
    int64_t t;                      /* time of the last line (wall or capture) */
    uint64_t gen;                   /* finding generation of the last line */
    uint32_t max_id;                /* highest finding id printed */
    uint8_t min_sev;                /* --min-severity: less severe findings are not counted */
};

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * SEC + ts.tv_nsec;
}

static uint64_t errors_now(const struct ns_stats *st)
{
    static struct ns_op_row rows[NS_OPKEY_MAX]; /* large: not on the stack */
    size_t n = ns_op_rows(st, rows, NS_OPKEY_MAX);
    uint64_t e = st->rpc_denied + st->rpc_not_success;
    for (size_t i = 0; i < n; i++) e += rows[i].s->errors;
    return e;
}

/* One line: frames, drops, rates over the interval, findings new since the
 * last line. t is the time now on the interval's clock, shown as UTC. */
static void line(struct batch *b, int64_t t)
{
    ns_analyzer_settle(b->a);
    const struct ns_stats *st = ns_analyzer_stats(b->a);
    struct capture_stats cs;
    capture_stats(b->c, &cs);
    double dt = t > b->t ? (double)(t - b->t) / 1e9 : 1;
    uint64_t err = errors_now(st);
    char when[NS_TIME_STRLEN];
    ns_clock_str(t, when, sizeof when);
    fprintf(stderr, "nfsscope: %s frames %" PRIu64 " (+%" PRIu64 ")", when, cs.frames, cs.frames - b->frames);
    if (cs.live && cs.stats_ok)
        fprintf(stderr, ", dropped %" PRIu64 " by kernel %" PRIu64 " by interface", cs.kernel_drops, cs.interface_drops);
    fprintf(stderr, ", %.1f calls/s, %.1f errors/s", (double)(st->rpc_calls - b->calls) / dt,
            (double)(err - b->errors) / dt);
    const struct ns_finding *const *all;
    size_t n = ns_analyzer_findings(b->a, &all), nall = 0;
    for (size_t i = 0; i < n; i++) nall += all[i]->severity >= b->min_sev;
    const struct ns_finding *const *ch;
    size_t fresh = 0;
    n = ns_analyzer_findings_changed(b->a, b->gen, &ch);
    for (size_t i = 0; i < n; i++) fresh += ch[i]->id > b->max_id && ch[i]->severity >= b->min_sev;
    fprintf(stderr, ", findings %zu (+%zu new", nall, fresh);
    /* the new ones by kind, in order of appearance: "SLOT_LIMITED x20", not the kind 20 times */
    const char *kind[4];
    size_t count[4], nk = 0;
    bool more = false;
    for (size_t i = 0; i < n; i++) {
        if (ch[i]->id <= b->max_id || ch[i]->severity < b->min_sev) continue;
        size_t k = 0;
        while (k < nk && strcmp(kind[k], ch[i]->kind)) k++;
        if (k < nk) count[k]++;
        else if (nk < 4) { kind[nk] = ch[i]->kind; count[nk++] = 1; }
        else more = true;
    }
    for (size_t k = 0; k < nk; k++) {
        fprintf(stderr, "%s%s", k ? ", " : ": ", kind[k]);
        if (count[k] > 1) fprintf(stderr, " x%zu", count[k]);
    }
    fputs(more ? ", ...)\n" : ")\n", stderr);
    for (size_t i = 0; i < n; i++)
        if (ch[i]->id > b->max_id) b->max_id = ch[i]->id;
    b->gen = ns_analyzer_findings_generation(b->a);
    b->frames = cs.frames;
    b->calls = st->rpc_calls;
    b->errors = err;
    b->t = t;
}

int run_batch(struct capture *c, ns_analyzer *a, const struct options *o)
{
    bool live = o->interface != NULL;
    /* A file is usually read in a second: its lines only with --batch. */
    bool lines = live || o->screen == 0;
    bool progress = !live && !lines && (o->progress == 1 || (o->progress < 0 && isatty(STDERR_FILENO)));
    struct progress pr;
    progress_start(&pr, progress ? capture_file(c) : NULL, o->read_file);
    struct batch b = {.a = a, .c = c, .min_sev = o->min_severity};
    int64_t next_tick = 0, next_line = 0;
    if (live) {
        int64_t now = clock_ns(CLOCK_MONOTONIC);
        next_tick = now + SEC;
        next_line = now + o->interval_ns;
        b.t = clock_ns(CLOCK_REALTIME);
    }
    struct ns_frame f;
    int r;
    uint64_t n = 0;
    while ((r = capture_next(c, &f)) >= 0) {
        if (r == 1) {
            n = f.number;
            if (!live && lines) {
                if (!next_line) next_line = (b.t = f.ts_ns) + o->interval_ns;
                if (f.ts_ns >= next_line) {
                    line(&b, f.ts_ns); /* the frame that crossed the boundary counts in the next line */
                    while (next_line <= f.ts_ns) next_line += o->interval_ns;
                }
            }
            ns_analyzer_feed(a, &f);
            if (progress && (n & 4095) == 0) progress_tick(&pr, n);
            if (o->count && (long long)capture_delivered(c) >= o->count) break;
            if (!live || (n & 255)) continue; /* look at the clock now and then under load */
        }
        if (!live) continue;
        int64_t now = clock_ns(CLOCK_MONOTONIC);
        outputs_poll(a, c); /* --metrics: a scrape waiting */
        if (now >= next_tick) { /* drops sampled every second */
            struct capture_stats cs;
            capture_stats(c, &cs);
            /* An idle link still ages calls. Only when the ring was empty, and
             * a second behind the wall clock: frames reach us up to a ring
             * block's timeout after they were stamped, and the core takes a
             * frame older than a tick as happening at the tick. */
            if (r == 0) ns_analyzer_tick(a, clock_ns(CLOCK_REALTIME) - TICK_LAG);
            next_tick = now + SEC;
        }
        if (lines && now >= next_line) {
            line(&b, clock_ns(CLOCK_REALTIME));
            next_line += o->interval_ns;
            if (next_line <= now) next_line = now + o->interval_ns;
        }
    }
    progress_end(&pr);
    return capture_error(c) ? 2 : 0;
}
