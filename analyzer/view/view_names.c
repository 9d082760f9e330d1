/* Names of the public enum values names.h does not cover (session, RPC
 * reply, transport), spelled as the reports print them. */
#include "nfsscope/view.h"

#define UNKNOWN "UNKNOWN"

const char *ns_state_protect_name(uint32_t sp)
{
    switch (sp) {
    case NS_SP4_NONE: return "SP4_NONE";
    case NS_SP4_MACH_CRED: return "SP4_MACH_CRED";
    case NS_SP4_SSV: return "SP4_SSV";
    default: return UNKNOWN;
    }
}

const char *ns_bind_method_name(uint8_t m)
{
    switch (m) {
    case NS_BIND_NONE: return "none";
    case NS_BIND_CREATE_SESSION: return "CREATE_SESSION";
    case NS_BIND_BIND_CONN: return "BIND_CONN_TO_SESSION";
    case NS_BIND_SEQUENCE: return "SEQUENCE";
    default: return UNKNOWN;
    }
}

const char *ns_bind_method_phrase(uint8_t m)
{
    switch (m) {
    case NS_BIND_NONE: return "never bound";
    case NS_BIND_CREATE_SESSION: return "bound by CREATE_SESSION";
    case NS_BIND_BIND_CONN: return "bound by BIND_CONN_TO_SESSION";
    case NS_BIND_SEQUENCE: return "bound by SEQUENCE (implicit)";
    default: return UNKNOWN;
    }
}

const char *ns_session_dead_name(uint8_t d)
{
    switch (d) {
    case NS_SESS_ALIVE: return NULL;
    case NS_SESS_BADSESSION: return "BADSESSION";
    case NS_SESS_DESTROYED: return "DESTROYED";
    default: return UNKNOWN;
    }
}

const char *ns_session_state_phrase(const struct ns_session_view *s)
{
    if (s->never_created) return "never created in the capture: the server answered NFS4ERR_BADSESSION";
    if (s->dead == NS_SESS_BADSESSION)
        return s->has_granted ? "lost by the server: NFS4ERR_BADSESSION after CREATE_SESSION (server restart?)"
                              : "unknown to the server: NFS4ERR_BADSESSION";
    if (s->dead == NS_SESS_DESTROYED) return "destroyed by DESTROY_SESSION";
    return NULL;
}

/* The two fields have different value sets (RFC 8881 18.34.1/18.34.2). */
const char *ns_chan_dir_name(uint32_t dir, bool requested)
{
    switch (dir) {
    case 1: return "FORE";
    case 2: return "BACK";
    case 3: return requested ? "FORE_OR_BOTH" : "BOTH";
    case 7: return requested ? "BACK_OR_BOTH" : NULL;
    default: return NULL;
    }
}

const char *ns_channels_name(bool fore, bool back)
{
    return fore && back ? "both" : fore ? "fore" : back ? "back" : "-";
}

const char *ns_rpc_status_name(uint32_t st)
{
    switch (st) {
    case NS_RPC_SUCCESS: return "SUCCESS";
    case NS_RPC_PROG_UNAVAIL: return "PROG_UNAVAIL";
    case NS_RPC_PROG_MISMATCH: return "PROG_MISMATCH";
    case NS_RPC_PROC_UNAVAIL: return "PROC_UNAVAIL";
    case NS_RPC_GARBAGE_ARGS: return "GARBAGE_ARGS";
    case NS_RPC_SYSTEM_ERR: return "SYSTEM_ERR";
    case NS_RPC_RPC_MISMATCH: return "RPC_MISMATCH";
    case NS_RPC_AUTH_ERROR: return "AUTH_ERROR";
    default: return UNKNOWN;
    }
}

const char *ns_reply_stat_name(uint8_t rs)
{
    return rs == NS_REPLY_ACCEPTED ? "MSG_ACCEPTED" : rs == NS_REPLY_DENIED ? "MSG_DENIED" : UNKNOWN;
}

const char *ns_transport_name(uint8_t tr)
{
    return tr == NS_TRANSPORT_TCP ? "tcp" : tr == NS_TRANSPORT_UDP ? "udp" : UNKNOWN;
}

const char *ns_gss_service_name(uint8_t svc)
{
    switch (svc) {
    case NS_GSS_SVC_NONE: return "none";
    case NS_GSS_SVC_INTEGRITY: return "integrity";
    case NS_GSS_SVC_PRIVACY: return "privacy";
    default: return NULL;
    }
}

const char *ns_nfs_status_name(uint8_t vers, uint32_t st)
{
    return vers == 3 ? ns_nfs3_status_name(st) : ns_nfs4_status_name(st);
}

const char *ns_session_op_name(uint32_t op)
{
    return op == NS_SESSION_OPS - 1 ? "OTHER" : ns_nfs4_op_name(op);
}

size_t ns_nfs_versions(uint32_t bits, const char **names, size_t cap)
{
    static const char *const v4[] = {"v4.0", "v4.1", "v4.2", "v4.3", "v4.4", "v4.5", "v4.6", "v4.7"};
    size_t n = 0;
    if ((bits & NS_VERS_BIT(2, 0)) && n < cap) names[n++] = "v2";
    if ((bits & NS_VERS_BIT(3, 0)) && n < cap) names[n++] = "v3";
    for (int m = 0; m < 8; m++)
        if ((bits & NS_VERS_BIT(4, m)) && n < cap) names[n++] = v4[m];
    return n;
}
