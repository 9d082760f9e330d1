/* Findings: diagnoses a person can act on, each with the frames that prove it. */
#ifndef NFSSCOPE_FINDINGS_H
#define NFSSCOPE_FINDINGS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Everything declared here is the library's public ABI (the rest is hidden). */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

enum ns_severity { NS_SEV_INFO = 0, NS_SEV_WARNING = 1, NS_SEV_ERROR = 2, NS_SEV_CRITICAL = 3 };

#define NS_FINDING_KIND_MAX 32
#define NS_FINDING_FRAMES 8    /* example frames kept (the first ones) */
#define NS_FINDING_CONNS 16    /* connection ids kept */
#define NS_FINDING_MSG_MAX 384
#define NS_FINDING_RFC_MAX 64

struct ns_finding {
    uint32_t id;                      /* 1-based, stable for the analyzer's life */
    uint64_t generation;              /* analyzer's finding generation when it last changed */
    char kind[NS_FINDING_KIND_MAX];   /* "SLOT_LIMITED", "CONN_NOT_BOUND", ... */
    uint8_t severity;                 /* enum ns_severity */
    int64_t first_ts_ns, last_ts_ns;
    uint64_t count;                   /* occurrences folded into this finding */
    bool has_session;
    uint8_t sessionid[16];
    bool has_client;
    uint64_t clientid;
    uint8_t nconns;
    uint32_t conns[NS_FINDING_CONNS]; /* sorted, distinct */
    uint8_t nframes;
    uint64_t frames[NS_FINDING_FRAMES]; /* sorted, distinct */
    char message[NS_FINDING_MSG_MAX]; /* one plain sentence (or two) */
    char rfc[NS_FINDING_RFC_MAX];     /* e.g. "RFC 8881 2.10.3.1"; empty if none */
};

const char *ns_severity_name(uint8_t sev); /* "info", "warning", "error", "critical" */

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#endif
