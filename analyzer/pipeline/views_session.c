/* Public accessors of nfsscope/session.h over the session analyzer. */
#include "analyzer_int.h"
#include "sess_model.h"

size_t ns_analyzer_client_count(const ns_analyzer *a) { return sess_client_count(a->an.sessions); }
const struct ns_client_view *ns_analyzer_client(const ns_analyzer *a, size_t i) { return sess_client(a->an.sessions, i); }
size_t ns_analyzer_session_count(const ns_analyzer *a) { return sess_session_count(a->an.sessions); }
const struct ns_session_view *ns_analyzer_session(const ns_analyzer *a, size_t i) { return sess_session(a->an.sessions, i); }
const struct ns_read_bytes *ns_analyzer_read_totals(const ns_analyzer *a) { return sess_read_totals(a->an.sessions); }
size_t ns_analyzer_read_files(const ns_analyzer *a, const struct ns_read_file *const **out)
{
    return sess_read_files(a->an.sessions, out);
}
const struct ns_session_stats *ns_analyzer_session_stats(const ns_analyzer *a) { return sess_stats(a->an.sessions); }

const struct ns_session_view *ns_analyzer_session_by_id(const ns_analyzer *a, const uint8_t *sessionid)
{
    return sess_session_by_id(a->an.sessions, sessionid);
}

const struct ns_client_view *ns_analyzer_client_by_id(const ns_analyzer *a, uint64_t clientid)
{
    return sess_client_by_id(a->an.sessions, clientid);
}
