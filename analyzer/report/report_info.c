/* A front end's ns_report_info, read up to the size it was built with
 * (nfsscope/report.h): fields added since take their zero defaults. */
#include <string.h>

#include "report_int.h"

void report_info_read(struct ns_report_info *out, const struct ns_report_info *in)
{
    memset(out, 0, sizeof *out);
    size_t n = in->size && in->size < sizeof *out ? in->size : sizeof *out;
    memcpy(out, in, n);
    out->size = sizeof *out;
}
