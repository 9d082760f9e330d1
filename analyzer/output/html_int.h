/* The HTML page's parts: the page and its tables (html_report.c), the
 * charts (html_charts.c, html_charts_udp.c), drawn with html_svg.c. */
#ifndef NFSSCOPE_OUTPUT_HTML_INT_H
#define NFSSCOPE_OUTPUT_HTML_INT_H
#include <stdio.h>

#include "html_svg.h"
#include "output.h"

#define HTML_TABLE_ROWS 200 /* rows of a table shown; the rest counted */
#define HTML_FILES 20       /* READ_PLUS files charted */
#define HTML_LAT_OPS 6      /* operations in the latency charts */
#define HTML_TIMELINE 40    /* findings in the findings' timeline */

struct page {
    FILE *f;
    ns_analyzer *a;
    const struct series *s;
    int64_t first_ns;  /* capture start: x = 0 */
    double span_s;     /* x axis length */
    uint8_t min_sev;   /* --min-severity: findings below it are left out */
};

/* The findings the page shows: those of severity min_sev or worse, a
 * prefix of ns_analyzer_findings' array (sorted by severity first). *left
 * (may be NULL) gets how many less severe ones are left out. */
size_t page_findings(const struct page *p, const struct ns_finding *const **out, size_t *left);

/* Seconds since the capture start of a packet time. */
double page_x(const struct page *p, int64_t ts);
/* Start and width of series bucket i, seconds since the capture start. */
double page_bucket_x(const struct page *p, unsigned i);
double page_bucket_w(const struct page *p);
/* The width of an interval for a label: "512 µs", "1.02 ms", "0.262 s". */
void page_interval(const struct page *p, char *buf, size_t n);

/* The id of the chart a finding is drawn on ("session-<hex>", "errors", ...). */
void html_finding_chart(const struct page *p, const struct ns_finding *fd, char *buf, size_t n);

void chart_session_slots(struct page *p, const struct ns_session_view *v, const struct series_session *ss);
void chart_session_conns(struct page *p, const struct ns_session_view *v);
void chart_errors(struct page *p);
void chart_findings_timeline(struct page *p);
void chart_latency(struct page *p);
void chart_latency_hist(struct page *p);
void chart_udp_pair(struct page *p, size_t i);
void chart_read_plus(struct page *p);

#endif
