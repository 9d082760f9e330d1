/* Folding the text report's findings (report_int.h): more than FOLD_ABOVE
 * findings of one kind and severity (a SLOT_LIMITED per session of a
 * conformance run) are one entry, printed where the first of them would
 * be: how many, their time span and occurrences, the worst FOLD_EXAMPLES
 * with their session, connections and frames, the worst one's message, and
 * how to list them all. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

#define FOLD_ABOVE 3       /* up to this many of a kind are listed one by one */
#define FOLD_EXAMPLES 3
#define EXAMPLE_FRAMES 4   /* frames an example line names (the finding keeps up to 8) */

struct report_fold {
    const struct ns_finding *const *list; /* the findings listed, in report order */
    size_t n;
    size_t *order;   /* positions in list, a group's members together (by severity, kind, position) */
    size_t *start;   /* per position: where its group begins in order */
    size_t *len;     /* per position: its group's size */
};

struct member { const struct ns_finding *f; size_t pos; };

static int by_group(const void *pa, const void *pb)
{
    const struct member *a = pa, *b = pb;
    if (a->f->severity != b->f->severity) return a->f->severity > b->f->severity ? -1 : 1;
    int k = strcmp(a->f->kind, b->f->kind);
    if (k) return k;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static bool same_group(const struct ns_finding *x, const struct ns_finding *y)
{
    return x->severity == y->severity && strcmp(x->kind, y->kind) == 0;
}

struct report_fold *report_fold_new(const struct ns_finding *const *list, size_t n)
{
    struct report_fold *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->list = list;
    f->n = n;
    f->order = malloc((n ? n : 1) * sizeof *f->order);
    f->start = malloc((n ? n : 1) * sizeof *f->start);
    f->len = malloc((n ? n : 1) * sizeof *f->len);
    if (!f->order || !f->start || !f->len) { report_fold_free(f); return NULL; }
    struct member *m = malloc((n ? n : 1) * sizeof *m);
    if (!m) { report_fold_free(f); return NULL; }
    for (size_t i = 0; i < n; i++) m[i] = (struct member){list[i], i};
    qsort(m, n, sizeof *m, by_group);
    for (size_t i = 0; i < n; i++) f->order[i] = m[i].pos;
    free(m);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && same_group(list[f->order[i]], list[f->order[j]])) j++;
        for (size_t k = i; k < j; k++) {
            f->start[f->order[k]] = i;
            f->len[f->order[k]] = j - i;
        }
        i = j;
    }
    return f;
}

void report_fold_free(struct report_fold *f)
{
    if (!f) return;
    free(f->order);
    free(f->start);
    free(f->len);
    free(f);
}

/* What makes one finding of a kind worse than another, from what it keeps:
 * for SLOT_LIMITED, the fore-channel slots its session asked and was not
 * granted (its CREATE_SESSION, from the session's view); for any other
 * kind, its occurrences. label: how an example line shows it. */
struct worst { uint64_t measure, count; size_t pos; char label[48]; };

static bool slot_limited(const struct ns_finding *f) { return strcmp(f->kind, "SLOT_LIMITED") == 0; }

static void measure(ns_analyzer *a, const struct ns_finding *f, size_t pos, struct worst *w)
{
    w->count = f->count;
    w->pos = pos;
    const struct ns_session_view *s = slot_limited(f) && f->has_session ? ns_analyzer_session_by_id(a, f->sessionid) : NULL;
    if (s) {
        uint32_t asked = s->fore_requested.maxrequests, granted = s->fore_granted.maxrequests;
        w->measure = asked > granted ? asked - granted : 0;
        snprintf(w->label, sizeof w->label, "granted %" PRIu32 " of %" PRIu32, granted, asked);
    } else {
        w->measure = f->count;
        snprintf(w->label, sizeof w->label, "x%" PRIu64, f->count);
    }
}

static int worst_first(const void *pa, const void *pb)
{
    const struct worst *a = pa, *b = pb;
    if (a->measure != b->measure) return a->measure > b->measure ? -1 : 1;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static void example_line(FILE *o, const struct ns_finding *f, const struct worst *w)
{
    fprintf(o, "             %s", w->label);
    if (f->has_session) {
        char sid[2 * NS_SESSIONID_LEN + 1];
        ns_hex_str(f->sessionid, NS_SESSIONID_LEN, sid, sizeof sid);
        fprintf(o, "  session %s", sid);
    } else if (f->has_client) {
        fprintf(o, "  client %016" PRIx64, f->clientid);
    }
    if (f->nconns) { fputs("  conns ", o); report_finding_conns(o, f); }
    if (f->nframes) {
        fputs("  frames", o);
        for (unsigned k = 0; k < f->nframes && k < EXAMPLE_FRAMES; k++) fprintf(o, " %" PRIu64, f->frames[k]);
        if (f->nframes > EXAMPLE_FRAMES) fputs(" ...", o);
    }
    fputc('\n', o);
}

static void fold_text(FILE *o, ns_analyzer *a, const struct report_fold *fd, size_t start, size_t len, bool lossy)
{
    const struct ns_finding *first = fd->list[fd->order[start]];
    struct worst *w = malloc(len * sizeof *w);
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    uint64_t occurrences = 0, loss = 0;
    for (size_t k = 0; k < len; k++) {
        size_t pos = fd->order[start + k];
        const struct ns_finding *f = fd->list[pos];
        if (f->first_ts_ns < t0) t0 = f->first_ts_ns;
        if (f->last_ts_ns > t1) t1 = f->last_ts_ns;
        occurrences += f->count;
        loss += report_finding_loss_possible(a, f, lossy);
        if (w) measure(a, f, pos, &w[k]);
    }
    char s0[NS_TIME_STRLEN], s1[NS_TIME_STRLEN];
    ns_clock_str(t0, s0, sizeof s0);
    ns_clock_str(t1, s1, sizeof s1);
    fprintf(o, "  %-8s %-20s %s..%s  x%" PRIu64 " in %zu findings\n", ns_severity_name(first->severity), first->kind,
            s0, s1, occurrences, len);
    size_t ex = 0;
    if (w) {
        qsort(w, len, sizeof *w, worst_first);
        ex = len < FOLD_EXAMPLES ? len : FOLD_EXAMPLES;
        fprintf(o, "           the worst %zu, by %s:\n", ex,
                slot_limited(first) ? "fore-channel slots asked and not granted" : "occurrences");
        for (size_t k = 0; k < ex; k++) example_line(o, fd->list[w[k].pos], &w[k]);
        const struct ns_finding *worst = fd->list[w[0].pos];
        fprintf(o, "           the worst one: %s", worst->message);
        if (worst->rfc[0]) fprintf(o, " [%s]", worst->rfc);
        fputc('\n', o);
    }
    if (loss) fprintf(o, "           %" PRIu64 " of them possibly caused by capture loss\n", loss);
    fprintf(o, "           ... and %zu more (--all-findings or -v lists every one)\n", len - ex);
    free(w);
}

bool report_fold_text(FILE *o, ns_analyzer *a, const struct report_fold *fd, size_t pos, bool lossy)
{
    size_t len = fd->len[pos], start = fd->start[pos];
    if (len <= FOLD_ABOVE) return false;
    if (fd->order[start] == pos) fold_text(o, a, fd, start, len, lossy); /* where its first finding would be */
    return true;
}
