/* The program's loop without the screen: frames from the capture into the
 * analyzer, a summary line on stderr per --interval, time passing on an idle
 * live link. The report is printed by the caller. */
#ifndef NFSSCOPE_RUN_BATCH_H
#define NFSSCOPE_RUN_BATCH_H
#include "capture.h"
#include "cli_options.h"
#include "nfsscope/nfsscope.h"

/* Returns 0, or 2 when the input was cut (capture_error says why). */
int run_batch(struct capture *c, ns_analyzer *a, const struct options *o);

#endif
