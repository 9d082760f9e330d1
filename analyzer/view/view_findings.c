/* Lists of finding kinds, as --fail-on takes them ("KIND,KIND"). */
#include <string.h>

#include "nfsscope/view.h"

bool ns_kind_listed(const char *kind, const char *kinds)
{
    size_t kl = strlen(kind);
    for (const char *p = kinds; *p;) {
        size_t l = strcspn(p, ",");
        if (l == kl && strncmp(p, kind, l) == 0) return true;
        p += l;
        if (*p == ',') p++;
    }
    return false;
}

bool ns_findings_any_of(ns_analyzer *a, const char *kinds)
{
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v);
    for (size_t i = 0; i < n; i++)
        if (ns_kind_listed(v[i]->kind, kinds)) return true;
    return false;
}
