/* tshark -q -z nfsscope,sessions and -z nfsscope,findings: the report's
 * own sections, printed by the report library (nfsscope/report.h), after
 * the analyzer has seen the whole capture. */
#include <stdio.h>
#include <stdlib.h>

#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include "nfsscope/report.h"
#include "plugin.h"

static int nfsscope_tap = -1;

#define RULE "===================================================================\n"

/* As tshark's own statistics: a rule, a title saying what this is, the
 * table, a rule. The report's section starts with a blank line (it follows
 * another section there): left out under the title. */
static void draw(enum ns_section which, const char *title)
{
    struct capture_state *cs = nfsscope_capture();
    if (!cs->a) {
        printf("nfsscope: %s\n", cs->err[0] ? cs->err : "no analysis");
        return;
    }
    capture_state_finish(cs); /* tshark draws once the capture has ended */
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return;
    ns_report_section_text(m, cs->a, which);
    fclose(m);
    const char *body = text;
    while (*body == '\n') body++;
    printf(RULE "%s\n%s" RULE, title, body);
    fflush(stdout);
    free(text);
}

static void draw_sessions(void *data _U_)
{
    draw(NS_SECTION_SESSIONS, "nfsscope sessions: the whole capture, as nfsscope -r reports them");
}

static void draw_findings(void *data _U_)
{
    draw(NS_SECTION_FINDINGS, "nfsscope findings: the whole capture, as nfsscope -r reports them");
}

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
