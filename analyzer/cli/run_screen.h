/* The live screen (tui/, analyzer/cli/run_screen.c): same contract as run_batch. */
#ifndef NFSSCOPE_RUN_SCREEN_H
#define NFSSCOPE_RUN_SCREEN_H
#include "capture.h"
#include "cli_options.h"
#include "nfsscope/nfsscope.h"

int run_screen(struct capture *c, ns_analyzer *a, const struct options *o); /* returns like run_batch: 0, or 2 when the input was cut */

#endif
