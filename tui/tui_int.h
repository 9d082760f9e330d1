/* Internals of the screen shared by its files. */
#ifndef NFSSCOPE_TUI_INT_H
#define NFSSCOPE_TUI_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfsscope/nfsscope.h"
#include "nfsscope/view.h"
#include "tui.h"

/* ---- terminal (tui_term.c) ---- */
bool term_open(char *err, size_t errlen);
void term_close(void);
/* Attribute for a severity (colour, or bold/underline on a monochrome terminal); -1: none. */
int term_sev_attr(int sev);
int term_dim_attr(void);

/* ---- text within a width, cuts marked (tui_text.c) ---- */
void text_set_utf8(bool on);   /* the terminal shows UTF-8: an ellipsis marks cuts, else "..." */
int text_cols(const char *s);  /* columns s takes */
/* s into buf (n bytes) within cols columns: whole, or its start and the
 * mark of the cut; returns the columns taken. */
int text_fit(char *buf, size_t n, const char *s, int cols);
/* Draw s at (y, x) within cols columns, a cut marked; returns the columns taken. */
int text_put(int y, int x, const char *s, int cols);

/* ---- counters kept between looks, per row keyed by a stable id (tui_meter.c) ---- */
#define METER_N 4
#define METER_KEY 40
struct meter {
    uint8_t key[METER_KEY];
    uint8_t klen;
    bool used;
    bool rolled;                /* rates hold a real interval */
    uint64_t prev[METER_N];
    double rate[METER_N];
    void *extra;                /* per-row state owned by the meter table (freed with it) */
};
struct meters { struct meter *v; size_t n, cap; };
struct meter *meter_find(struct meters *m, const void *key, size_t klen, bool add);
/* A new interval of dt ns ends with counters now: rates, then prev = now. */
void meter_roll(struct meter *e, const uint64_t *now, size_t n, int64_t dt);
void meters_free(struct meters *m);

/* ---- tables: rows, filter, sort, selection, drawing (tui_table.c) ---- */
#define TUI_COLS 12
#define TUI_CELL 48
struct tui_col {
    const char *title;
    int width;
    bool left;                  /* text: left-aligned, sorted ascending, may shrink */
    int drop;                   /* on a narrow screen, higher drops first; 0 never; -1 not shown */
    bool ranked;                /* text sorted by its key, high first (severity: critical first) */
};
struct tui_row {
    char cell[TUI_COLS][TUI_CELL];
    double key[TUI_COLS];       /* sort keys of the numeric columns */
    int sev;                    /* -1: default attribute */
    char match[160];            /* what / filters on (addresses, session id, names) */
    uint8_t id[16];             /* identity of the row, to keep the selection */
    uint8_t idlen;
    size_t order;               /* natural order */
};
struct view_state { int sel, top, sort; uint8_t sel_id[16]; uint8_t sel_idlen; };
struct tui_table {
    const struct tui_col *cols;
    int ncols;
    struct tui_row *rows;
    size_t n, cap;
    size_t *idx;                /* rows shown, in order */
    size_t nidx, idxcap;
};
void table_reset(struct tui_table *t, const struct tui_col *cols, int ncols);
struct tui_row *table_add(struct tui_table *t); /* NULL when out of memory */
void table_finish(struct tui_table *t, const char *filter, struct view_state *vs);
/* Draw into rows y..y+h-1 of a w-column screen; the selection is kept
 * visible; empty: what to say when no row is shown. */
void table_draw(const struct tui_table *t, int y, int h, int w, struct view_state *vs, const char *empty);
const struct tui_row *table_selected(const struct tui_table *t, const struct view_state *vs);
void table_free(struct tui_table *t);
/* Cell helpers */
void cell_rate(struct tui_row *r, int col, double v);      /* "12.3" / "1234" */
void rate_str(char *buf, size_t n, double v);              /* a rate as cell_rate writes it (the header too) */
void cell_u64(struct tui_row *r, int col, uint64_t v);
void cell_ns(struct tui_row *r, int col, int64_t ns);      /* "850us", "12.1ms", "1.20s"; "-" below 0 */
void cell_str(struct tui_row *r, int col, const char *s);
/* The text '/' filters the row on (cut to the buffer: a filter matches its prefix). */
void row_match(struct tui_row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the screen's state ---- */
enum { V_SESSIONS, V_CONNS, V_FINDINGS, V_OPS, V_SLOTS, V_UDP, V_CLIENTS, V_COUNT };
#define SLOT_SHOW 256           /* slots whose history is kept */
#define SLOT_HIST 120           /* seconds of history */
struct session_extra {          /* per session, keyed by session id */
    struct ns_latency lat;      /* replies of the session's calls */
    uint64_t slot_calls[SLOT_SHOW]; /* slot calls at the last roll (the detail's slot table) */
    uint8_t hist[SLOT_HIST][SLOT_SHOW]; /* enum ns_slot_use per second of packet time, ring */
    int head, nhist;
    int64_t head_sec;           /* the packet second of hist[head] */
    bool in_flight[SLOT_SHOW];  /* a call sent, its reply not yet */
    uint32_t granted;           /* slots granted, as last known (at most SLOT_SHOW) */
    uint32_t hist_slots;        /* slots recorded */
};
struct conn_extra {             /* per connection, keyed by its id */
    struct ns_latency lat;      /* replies */
    uint64_t errors;            /* failed replies (NFS status not OK, RPC refused) */
};
struct client_extra {           /* per client address */
    struct ns_latency lat;
    uint64_t calls, errors;
};
struct tui {
    ns_analyzer *a;
    ns_event_fn pass_fn;        /* tui_pass_events */
    void *pass_ctx;
    int view;
    bool view_chosen;           /* by a key; until then the screen picks the most useful */
    bool detail, help, paused, prompt;
    uint8_t find_min_sev;       /* Findings view: this severity or worse ('m' cycles; --min-severity) */
    bool find_unfolded;         /* Findings view: a row per finding ('f'); else many of a kind fold */
    size_t find_hidden;         /* findings the minimum severity left out, as last drawn */
    char filter[64], input[64];
    size_t ninput;
    struct view_state vs[V_COUNT], detail_vs;
    uint8_t sel_session[16];
    bool has_sel_session;
    struct meters m_sess, m_conn, m_op, m_udp, m_find, m_hdr, m_client;
    int64_t prev_now;           /* packet time of the last roll (0: none) */
    int64_t dt;                 /* the interval the rates cover */
    struct tui_table table;
    struct tui_status st;
    char source[256];
    int rows, cols;             /* screen size */
};

/* ---- drawing (one file per part) ---- */
void draw_header(struct tui *t);       /* tui_header.c: lines 0-2 */
void draw_footer(struct tui *t);
void draw_help(struct tui *t);
void view_sessions(struct tui *t);     /* tui_rows.c: fill t->table */
void view_conns(struct tui *t);
void view_ops(struct tui *t);
void view_udp(struct tui *t);
void view_clients(struct tui *t);      /* tui_clients.c */
/* What an empty table says: nothing yet, none in this capture, or none
 * matching the filter (tui_rows.c). */
const char *view_empty(struct tui *t, char *buf, size_t n);
/* The view to open on while the user has not chosen one (tui_rows.c). */
int view_most_useful(struct tui *t);
void view_findings(struct tui *t, int y, int h);  /* tui_findings.c: table and message */
void view_slots(struct tui *t, int y, int h);     /* tui_slots.c */
void view_detail(struct tui *t, int y, int h);    /* tui_detail.c */
void roll_sessions(struct tui *t);     /* tui_rows.c: rates and slot history */
void roll_others(struct tui *t);
void roll_findings(struct tui *t);     /* tui_findings.c */
void roll_clients(struct tui *t);      /* tui_clients.c */
/* Per client and connection: calls, latency and failed replies from the events. */
void clients_on_event(struct tui *t, const struct ns_event *ev);
const struct conn_extra *conn_extra(struct tui *t, uint32_t id); /* NULL: no reply yet */
/* The newest findings of one session or of its client alone (at most cap), newest first. */
size_t session_findings(struct tui *t, const struct ns_session_view *s, const struct ns_finding **out, size_t cap);
/* One character per enum ns_slot_use (tui_slots.c). */
char slot_use_char(uint8_t use);
/* The session shown by views 5 and the detail: the selected one, else the first. */
const struct ns_session_view *current_session(struct tui *t);
struct session_extra *session_extra(struct tui *t, const uint8_t *sid, bool add);
/* Slot history per second of packet time (tui_slot_history.c): from the
 * events, and brought up to the packet time now at each roll. */
void slot_history_event(struct tui *t, const struct ns_event *ev);
void slot_history_catch_up(struct session_extra *x, int64_t now_ns, uint32_t granted);
/* Client address and server endpoint of a session, from its connections. */
void session_ends(struct tui *t, const struct ns_session_view *s, char *client, size_t cn, char *server, size_t sn);

#endif
