/* The program's screen loop (--tui): frames from the capture into the
 * analyzer, keys to the screen, and once a second (wall time) or on a key
 * a settled analyzer drawn by tui/. A file is paced at its capture timing
 * (--speed N: N times faster; max: no pacing) so a replay looks like the
 * live view; when it ends the screen stays until q. */
#include <poll.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "run_screen.h"

#include "cli_outputs.h"
#include "tui.h"

#define SEC 1000000000LL
#define FEED_SLICE_NS (20 * 1000000LL) /* feed at most this long between looks at the keyboard */

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * SEC + ts.tv_nsec;
}

struct pacer {
    double speed;               /* 0: no pacing */
    int64_t wall0, ts0;         /* the first frame's wall and packet times */
};

/* Wall time at which a frame is due. */
static int64_t due_at(struct pacer *p, const struct ns_frame *f, int64_t now)
{
    if (p->speed <= 0) return now;
    if (!p->wall0) { p->wall0 = now; p->ts0 = f->ts_ns; }
    int64_t d = f->ts_ns > p->ts0 ? f->ts_ns - p->ts0 : 0;
    return p->wall0 + (int64_t)((double)d / p->speed);
}

static void status_of(struct capture *c, const char *source, bool ended, struct tui_status *st)
{
    struct capture_stats cs;
    capture_stats(c, &cs);
    st->source = source;
    st->live = cs.live;
    st->drops_known = cs.live && cs.stats_ok;
    st->drops = cs.kernel_drops + cs.interface_drops;
    st->ended = ended;
    st->cut = capture_error(c);
}

/* The terminal cannot be used: read the rest so the report is complete. */
static int drain(struct capture *c, ns_analyzer *a, const struct options *o)
{
    struct ns_frame f;
    int r;
    while ((r = capture_next(c, &f)) >= 0) {
        if (r == 0) continue;
        ns_analyzer_feed(a, &f);
        if (o->count && (long long)capture_delivered(c) >= o->count) break;
    }
    return capture_error(c) ? 2 : 0;
}

int run_screen(struct capture *c, ns_analyzer *a, const struct options *o)
{
    char err[256];
    struct tui *t = tui_open(a, err, sizeof err);
    if (!t) {
        fprintf(stderr, "nfsscope: %s; reading without the screen\n", err);
        return drain(c, a, o);
    }
    ns_event_fn pass_fn; /* --html, --metrics: their series hear the events too */
    void *pass_ctx;
    outputs_listener(&pass_fn, &pass_ctx);
    tui_pass_events(t, pass_fn, pass_ctx);
    tui_set_min_severity(t, o->min_severity);
    const char *source = o->read_file ? o->read_file : o->interface;
    int fd = capture_fd(c);
    bool live = fd >= 0, ended = false, have = false, ready = true;
    struct pacer pace = {.speed = live ? 0 : o->speed};
    struct ns_frame f;
    struct tui_status st;
    int64_t start = clock_ns(CLOCK_MONOTONIC), next_draw = start, elapsed = 0, due = 0;
    bool signalled = false;
    for (;;) {
        int64_t now = clock_ns(CLOCK_MONOTONIC);
        if (capture_stopped(c)) { /* a signal: drain what is left at once, then end */
            pace.speed = 0;
            ready = true;
        }
        /* feed what is due, a slice at a time */
        for (int64_t slice_end = now + FEED_SLICE_NS; !ended && ready;) {
            if (!have) {
                int r = capture_next(c, &f);
                if (r < 0) {
                    /* the input is over: finish now (idempotent, the caller
                     * finishes again) so the last screen shows what the
                     * report will, end-only findings included */
                    ended = true;
                    signalled = capture_stopped(c); /* Ctrl-C, SIGTERM, SIGHUP: straight to the report */
                    ns_analyzer_finish(a);
                    next_draw = now;
                    break;
                }
                if (r == 0) { ready = false; break; } /* live: nothing within the read timeout: poll */
                have = true;
            }
            now = clock_ns(CLOCK_MONOTONIC);
            if ((due = due_at(&pace, &f, now)) > now) break;
            ns_analyzer_feed(a, &f);
            have = false;
            if (o->count && (long long)capture_delivered(c) >= o->count) {
                ended = true;
                next_draw = now;
                capture_stop(c);
                ns_analyzer_finish(a);
                break;
            }
            if ((f.number & 63) == 0 && clock_ns(CLOCK_MONOTONIC) >= slice_end) break;
        }
        now = clock_ns(CLOCK_MONOTONIC);
        if (!ended) elapsed = now - start; /* the clock stops with the input */
        int64_t wait = next_draw - now;
        if (!ended && have && due - now < wait) wait = due - now;
        if (!ended && !live && !have) wait = 0; /* a file with more to read */
        if (wait < 0) wait = 0;
        struct pollfd pf[2] = {{.fd = STDIN_FILENO, .events = POLLIN}, {.fd = fd, .events = POLLIN}};
        int npf = live && !ended ? 2 : 1;
        if (poll(pf, (nfds_t)npf, (int)((wait + 999999) / 1000000)) > 0 && npf == 2 && (pf[1].revents & (POLLIN | POLLERR | POLLHUP)))
            ready = true;
        outputs_poll(a, c); /* --metrics: a scrape waiting */
        /* the terminal is gone (ssh dropped, window closed): a hung-up
         * descriptor polls ready for ever, so leave now and let the report
         * go where -o sends it */
        if (pf[0].revents & (POLLHUP | POLLERR | POLLNVAL)) break;
        if (signalled) break;
        /* keys only when there are some (or a redraw is due): not a read per wakeup */
        enum tui_action act = (pf[0].revents & POLLIN) || clock_ns(CLOCK_MONOTONIC) >= next_draw ? tui_keys(t) : TUI_NONE;
        if (act == TUI_QUIT) break;
        now = clock_ns(CLOCK_MONOTONIC);
        bool roll = now >= next_draw;
        if (roll || act == TUI_REDRAW) {
            /* Tick only on an idle ring and a second behind the clock: the
             * core takes a frame stamped before a tick as happening at the
             * tick, and frames reach us up to a ring block timeout late. */
            if (live && !ended && !ready) ns_analyzer_tick(a, clock_ns(CLOCK_REALTIME) - SEC);
            ns_analyzer_settle(a);
            status_of(c, source, ended, &st);
            st.elapsed_ns = elapsed;
            tui_refresh(t, &st, roll);
            if (roll) next_draw = now + SEC;
        }
    }
    tui_close(t);
    if (pass_fn) ns_analyzer_on_event(a, pass_fn, pass_ctx);
    if (live && !ended) capture_stop(c);
    return capture_error(c) ? 2 : 0;
}
