/* --fail-on kinds and severities, --min-severity (see cli_finding_kinds.h). */
#include "cli_finding_kinds.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nfsscope/view.h"

/* Every kind the analyzer raises (analysis/session, analysis/udp). No kind
 * is named like a severity (e2e.cli.findings_severity checks), so a word of
 * --fail-on is one or the other. */
static const char *const kinds[] = {
    "CONN_NOT_BOUND", "SEQ_MISORDERED", "GRACE_STUCK", "SLOT_LIMITED", "SLOT_TABLE_SHRUNK", "SLOT_SEQ_GAP",
    "SLOT_ABOVE_GRANTED", "SEQUENCE_POS", "DEAD_SESSION_USE", "REPLAY", "FALSE_RETRY", "CONN_NOT_BOUND_STORM", "SEQ_MISORDERED_STORM",
    "BADSESSION_STORM", "DEADSESSION_STORM", "BADSLOT_STORM", "DELAY_STORM", "RTO_INFLATED", "FRAGMENT_LOSS",
    "SPURIOUS_RETRANSMIT",
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

int severity_parse(const char *s, size_t len)
{
    for (int sev = NS_SEV_INFO; sev <= NS_SEV_CRITICAL; sev++) {
        const char *name = ns_severity_name((uint8_t)sev);
        if (strlen(name) == len && strncasecmp(name, s, len) == 0) return sev;
    }
    return -1;
}

static bool known(const char *k, size_t len)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (strlen(kinds[i]) == len && strncasecmp(kinds[i], k, len) == 0) return true;
    return false;
}

static void list_kinds(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NKINDS && used < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? " " : "", kinds[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

bool finding_kinds_check(char *list, int *min_sev, char *err, size_t errlen)
{
    char valid[512];
    list_kinds(valid, sizeof valid);
    static const char sevs[] = "severities (that one or worse): info warning error critical";
    *min_sev = -1;
    for (const char *p = list;;) {
        size_t l = strcspn(p, ",");
        int sev = l ? severity_parse(p, l) : -1;
        if (l == 0) {
            snprintf(err, errlen, "--fail-on: empty finding kind in '%s'; %s; valid kinds: %s", list, sevs, valid);
            return false;
        }
        if (sev < 0 && !known(p, l)) {
            snprintf(err, errlen, "--fail-on: unknown finding kind or severity '%.*s'; %s; valid kinds: %s", (int)l, p,
                     sevs, valid);
            return false;
        }
        if (sev >= 0 && (*min_sev < 0 || sev < *min_sev)) *min_sev = sev;
        p += l;
        if (!*p) break;
        p++;
    }
    /* the kinds alone, in upper case, copied down over the severities */
    char *out = list;
    for (const char *p = list;;) {
        size_t l = strcspn(p, ",");
        if (severity_parse(p, l) < 0) {
            if (out != list) *out++ = ',';
            for (size_t i = 0; i < l; i++) *out++ = (char)toupper((unsigned char)p[i]);
        }
        p += l;
        if (!*p) break;
        p++;
    }
    *out = 0;
    return true;
}

bool fail_on_met(ns_analyzer *a, const char *kinds_listed, int min_sev)
{
    if (kinds_listed && kinds_listed[0] && ns_findings_any_of(a, kinds_listed)) return true;
    if (min_sev < 0) return false;
    const struct ns_finding *const *v;
    size_t n = ns_analyzer_findings(a, &v);
    for (size_t i = 0; i < n; i++)
        if (v[i]->severity >= min_sev) return true;
    return false;
}
