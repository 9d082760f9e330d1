/* nfsscope as a Wireshark 4.0 plugin: a postdissector that feeds each
 * whole frame to the core library on the first pass (the core reassembles
 * by itself, exactly as `nfsscope -r`), keeps each frame's verdicts in a
 * file-scoped table, and shows them on every pass. doc/wireshark-plugin.md. */
#include <string.h>

#include <epan/prefs.h>
#include <epan/proto.h>
#include <wiretap/pcap-encap.h>
#include <wiretap/wtap.h>
#include <ws_symbol_export.h>

#include "plugin.h"
#include "plugin_fields.h"

/* The loader's contract (Wireshark 4.0): these four, and nothing else, are
 * exported (dissector/exports.map). */
WS_DLL_PUBLIC_DEF const gchar plugin_version[] = "0.1.0";
WS_DLL_PUBLIC_DEF const int plugin_want_major = 4;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = 0;
WS_DLL_PUBLIC void plugin_register(void);

static struct capture_state state;
static guint pref_table_mib = 256;
/* Expert items for findings of this severity and worse (enum ns_severity):
 * info, the default, is every one, as before the preference existed. */
static gint pref_min_severity = NS_SEV_INFO;
static const enum_val_t min_severity_vals[] = {
    {"info", "info: every finding", NS_SEV_INFO},
    {"warning", "warning and worse", NS_SEV_WARNING},
    {"error", "error and worse", NS_SEV_ERROR},
    {"critical", "critical only", NS_SEV_CRITICAL},
    {NULL, NULL, 0},
};
static dissector_handle_t nfsscope_handle;

/* WTAP_ENCAP_* -> DLT, for the link types the core decodes. Wireshark
 * exports only the DLT -> WTAP direction, so the table is built from it. */
#define ENCAP_MAP 1024
static int encap_to_dlt[ENCAP_MAP];

static void build_encap_map(void)
{
    for (int i = 0; i < ENCAP_MAP; i++) encap_to_dlt[i] = -1;
    for (int dlt = 0; dlt < 512; dlt++) {
        if (!ns_linktype_supported(dlt)) continue;
        int w = wtap_pcap_encap_to_wtap_encap(dlt);
        if (w > 0 && w < ENCAP_MAP && encap_to_dlt[w] < 0) encap_to_dlt[w] = dlt;
    }
}

struct capture_state *nfsscope_capture(void) { return &state; }
uint8_t nfsscope_min_severity(void) { return (uint8_t)pref_min_severity; }

static void nfsscope_init(void) { capture_state_open(&state, (uint64_t)pref_table_mib << 20); }
static void nfsscope_cleanup(void) { capture_state_close(&state); }
/* The first, sequential pass has ended (the file is read, the live capture
 * stopped): the end-of-input rules apply, as at the end of `nfsscope -r`,
 * and later passes show their findings too. */
static void nfsscope_end_of_input(void) { capture_state_finish(&state); }

static void feed(tvbuff_t *tvb, packet_info *pinfo)
{
    if (!pinfo->rec || pinfo->rec->rec_type != REC_TYPE_PACKET) return;
    int encap = pinfo->rec->rec_header.packet_header.pkt_encap;
    int dlt = encap > 0 && encap < ENCAP_MAP ? encap_to_dlt[encap] : -1;
    if (dlt < 0) return;
    guint caplen = tvb_captured_length(tvb);
    const guint8 *data = tvb_get_ptr(tvb, 0, caplen);
    int64_t ts = (int64_t)pinfo->abs_ts.secs * 1000000000 + pinfo->abs_ts.nsecs;
    capture_state_feed(&state, pinfo->num, ts, caplen, tvb_reported_length(tvb), dlt, data);
}

static int dissect_nfsscope(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
    if (!state.a) return 0;
    if (!PINFO_FD_VISITED(pinfo)) feed(tvb, pinfo);
    else capture_state_sync(&state); /* revisit: findings as they stand now */
    const struct frame_rec *r = frame_table_get(&state.frames, pinfo->num);
    if (!r) {
        /* the first frame the table had no room for says so, on every pass */
        if (pinfo->num == state.frames.first_unrecorded) {
            proto_item *ti = proto_tree_add_item(tree, proto_nfsscope, tvb, 0, 0, ENC_NA);
            proto_tree *t = proto_item_add_subtree(ti, ett_nfsscope);
            proto_item_set_generated(proto_tree_add_uint64(t, hf_ns_unrecorded, tvb, 0, 0,
                                                           state.frames.frames_unrecorded));
            expert_add_info(pinfo, ti, &ei_ns_table_full);
        }
        return 0;
    }
    nfsscope_tree(tvb, pinfo, tree, &state, r);
    return tvb_captured_length(tvb);
}

static void proto_register_nfsscope(void)
{
    proto_nfsscope = proto_register_protocol("nfsscope NFS analysis", "nfsscope", "nfsscope");
    nfsscope_register_fields();
    module_t *m = prefs_register_protocol(proto_nfsscope, NULL);
    prefs_register_uint_preference(m, "table_mib", "Per-frame table cap (MiB)",
                                   "Memory for what nfsscope keeps about each frame; past it, later frames are "
                                   "analysed but not shown (takes effect when a file is opened)",
                                   10, &pref_table_mib);
    prefs_register_enum_preference(m, "min_severity", "Minimum severity of nfsscope expert items",
                                   "Expert items (Analyze > Expert Information, tshark -z expert) for nfsscope "
                                   "findings of this severity and worse; the findings stay in the nfsscope tree "
                                   "(nfsscope.finding.severity)",
                                   &pref_min_severity, min_severity_vals, FALSE);
    register_init_routine(nfsscope_init);
    register_cleanup_routine(nfsscope_cleanup);
    register_postseq_cleanup_routine(nfsscope_end_of_input);
    nfsscope_register_stats();
    build_encap_map();
}

static void proto_reg_handoff_nfsscope(void)
{
    nfsscope_handle = create_dissector_handle(dissect_nfsscope, proto_nfsscope);
    register_postdissector(nfsscope_handle);
}

void plugin_register(void)
{
    static proto_plugin plug;
    plug.register_protoinfo = proto_register_nfsscope;
    plug.register_handoff = proto_reg_handoff_nfsscope;
    proto_register_plugin(&plug);
}
