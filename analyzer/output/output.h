/* nfsscope's outputs for people and monitoring beyond the text and JSON
 * reports: the HTML post-mortem page (charts) and the Prometheus text
 * exposition (a file, or served while capturing). Both read the analyzer
 * through its public API and the shared display model (nfsscope/view.h),
 * plus the time series collected from its events (series.h). */
#ifndef NFSSCOPE_OUTPUT_H
#define NFSSCOPE_OUTPUT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nfsscope/nfsscope.h"
#include "series.h"

/* What the capture itself knows (the program's capture layer fills it). */
struct out_capture {
    const char *source;         /* file name or interface */
    bool live;
    bool counters;              /* kernel/interface drops are known */
    uint64_t frames, kernel_drops, interface_drops;
    const char *partial;        /* why the capture was cut short, or NULL */
    uint8_t min_severity;       /* --min-severity: less severe findings are left out (enum ns_severity) */
};

/* The HTML page; 0, or -1 when writing failed (errno set). */
int html_write(FILE *f, ns_analyzer *a, const struct series *s, const struct out_capture *c);

/* The Prometheus text exposition (version 0.0.4); 0, or -1 when writing failed. */
#define METRICS_SESSIONS 16     /* session label values; the rest are folded into "other" */
#define METRICS_PAIRS 16        /* UDP client/server pairs */
int metrics_write(FILE *f, ns_analyzer *a, const struct series *s, const struct out_capture *c);

#endif
