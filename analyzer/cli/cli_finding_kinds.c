/* --fail-on kinds (see cli_finding_kinds.h). */
#include "cli_finding_kinds.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Every kind the analyzer raises (analysis/session, analysis/udp). */
static const char *const kinds[] = {
    "CONN_NOT_BOUND", "SEQ_MISORDERED", "GRACE_STUCK", "SLOT_LIMITED", "SLOT_TABLE_SHRUNK", "SLOT_SEQ_GAP",
    "SLOT_ABOVE_GRANTED", "SEQUENCE_POS", "DEAD_SESSION_USE", "REPLAY", "FALSE_RETRY", "CONN_NOT_BOUND_STORM", "SEQ_MISORDERED_STORM",
    "BADSESSION_STORM", "DEADSESSION_STORM", "BADSLOT_STORM", "DELAY_STORM", "RTO_INFLATED", "FRAGMENT_LOSS",
    "SPURIOUS_RETRANSMIT",
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

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

bool finding_kinds_check(char *list, char *err, size_t errlen)
{
    char valid[512];
    list_kinds(valid, sizeof valid);
    for (const char *p = list;;) {
        size_t l = strcspn(p, ",");
        if (l == 0) {
            snprintf(err, errlen, "--fail-on: empty finding kind in '%s'; valid kinds: %s", list, valid);
            return false;
        }
        if (!known(p, l)) {
            snprintf(err, errlen, "--fail-on: unknown finding kind '%.*s'; valid kinds: %s", (int)l, p, valid);
            return false;
        }
        p += l;
        if (!*p) break;
        p++;
    }
    for (char *q = list; *q; q++) *q = (char)toupper((unsigned char)*q);
    return true;
}
