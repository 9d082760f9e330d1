/* Used by the build only while run_screen.c does not exist: the program
 * links and behaves like --batch. */
#include <stdio.h>

#include "run_batch.h"
#include "run_screen.h"

int run_screen(struct capture *c, ns_analyzer *a, const struct options *o)
{
    fputs("nfsscope: built without the screen\n", stderr);
    return run_batch(c, a, o);
}
