/* The program's side of --html, --metrics and --metrics-file: the files and
 * the listening socket opened before root is given up, the series attached
 * to the analyzer, the endpoint served from the capture loop, the files
 * written at the end (analyzer/output/ does the writing). One set per run. */
#ifndef NFSSCOPE_CLI_OUTPUTS_H
#define NFSSCOPE_CLI_OUTPUTS_H
#include <stdbool.h>
#include <stddef.h>

#include "capture.h"
#include "cli_options.h"
#include "nfsscope/nfsscope.h"
#include "nfsscope/report.h"

/* Open what the options ask for (before the privilege drop); -1 with a
 * one-line reason in err. Nothing asked: 0 and nothing else happens. */
int outputs_open(const struct options *o, char *err, size_t errlen);
/* Collect the series from a's events (after the analyzer is made). */
int outputs_attach(ns_analyzer *a, char *err, size_t errlen);
/* The series' event listener (NULL when nothing is collected), for a front
 * end that takes the analyzer's events itself (the screen) to pass them on. */
void outputs_listener(ns_event_fn *fn, void **ctx);
/* Serve a pending scrape without blocking (the capture loops call it now
 * and then; nothing to do without --metrics). */
void outputs_poll(ns_analyzer *a, struct capture *c);
/* After ns_analyzer_finish: write the HTML page and the .prom file; the
 * number of files that failed (each reported on stderr). Closes everything. */
int outputs_finish(ns_analyzer *a, const struct ns_report_info *ri);

#endif
