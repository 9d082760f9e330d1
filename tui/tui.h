/* The live screen ("top for NFS"): an ncurses view of an analyzer, read only
 * through the public headers. The front end owns the capture and the clock:
 * it feeds frames, settles the analyzer and calls tui_refresh about once a
 * second; the screen never draws per frame. */
#ifndef NFSSCOPE_TUI_H
#define NFSSCOPE_TUI_H
#include <stdbool.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"

struct tui;

/* What the front end knows about its capture (the analyzer knows the rest). */
struct tui_status {
    const char *source;         /* file name or interface */
    bool live;
    bool drops_known;
    uint64_t drops;             /* kernel + interface drops */
    bool ended;                 /* the input ended (replay over, capture stopped) */
    const char *cut;            /* why the input ended early, or NULL */
    int64_t elapsed_ns;         /* wall time since the screen opened */
};

/* Take over the terminal and listen to a's events (per-session latency).
 * NULL with a reason in err if the terminal cannot be used. */
struct tui *tui_open(ns_analyzer *a, char *err, size_t errlen);
/* Pass every event the screen receives on to fn (another listener of the
 * analyzer: the HTML page's and the metrics' series); fn NULL: none. */
void tui_pass_events(struct tui *t, ns_event_fn fn, void *ctx);
/* Give the terminal back (also done by the signal handler on a crash). */
void tui_close(struct tui *t);
/* a was settled: draw its state. roll: a new interval starts, rates are
 * computed over the packet time since the previous roll (once a second);
 * without it rates stay those of the last interval (a redraw after a key). */
void tui_refresh(struct tui *t, const struct tui_status *st, bool roll);
/* The Findings view's minimum severity to start with (enum ns_severity;
 * --min-severity); the key m cycles it. */
void tui_set_min_severity(struct tui *t, uint8_t sev);
/* Handle the keys waiting on the terminal. */
enum tui_action { TUI_NONE = 0, TUI_REDRAW, TUI_QUIT };
enum tui_action tui_keys(struct tui *t);

#endif
