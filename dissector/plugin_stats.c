/* tshark -q -z nfsscope,sessions and -z nfsscope,findings: the report's
 * own sections, printed by the report library (nfsscope/report.h), after
 * the analyzer has seen the whole capture. */
#include <stdio.h>

#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include "nfsscope/report.h"
#include "plugin.h"

static int nfsscope_tap = -1;

static void draw(enum ns_section which)
{
    struct capture_state *cs = nfsscope_capture();
    if (!cs->a) {
        printf("nfsscope: %s\n", cs->err[0] ? cs->err : "no analysis");
        return;
    }
    capture_state_finish(cs); /* tshark draws once the capture has ended */
    printf("\n===================================================================\n");
    fflush(stdout);
    ns_report_section_text(stdout, cs->a, which);
    printf("===================================================================\n");
    fflush(stdout);
}

static void draw_sessions(void *data _U_) { draw(NS_SECTION_SESSIONS); }
static void draw_findings(void *data _U_) { draw(NS_SECTION_FINDINGS); }

static void init_stat(const char *opt_arg, tap_draw_cb fn)
{
    GString *err = register_tap_listener("nfsscope", (void *)opt_arg, NULL, TL_REQUIRES_NOTHING, NULL, NULL, fn, NULL);
    if (err) {
        fprintf(stderr, "tshark: can't register nfsscope tap: %s\n", err->str);
        g_string_free(err, TRUE);
    }
}

static void init_sessions(const char *opt_arg, void *userdata _U_) { init_stat(opt_arg, draw_sessions); }
static void init_findings(const char *opt_arg, void *userdata _U_) { init_stat(opt_arg, draw_findings); }

void nfsscope_register_stats(void)
{
    static stat_tap_ui sessions = {REGISTER_STAT_GROUP_GENERIC, "nfsscope sessions", "nfsscope,sessions",
                                   init_sessions, 0, NULL};
    static stat_tap_ui findings = {REGISTER_STAT_GROUP_GENERIC, "nfsscope findings", "nfsscope,findings",
                                   init_findings, 0, NULL};
    nfsscope_tap = register_tap("nfsscope");
    register_stat_tap_ui(&sessions, NULL);
    register_stat_tap_ui(&findings, NULL);
}
