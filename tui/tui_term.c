/* The terminal: ncurses set up, colours or a monochrome fallback, and the
 * terminal given back on every way out, crashes and signals included. */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "tui_int.h"

static struct termios g_saved;
static int g_fd = STDOUT_FILENO;  /* where the screen is drawn */
static FILE *g_tty;               /* /dev/tty when stdout is not a terminal (report to a file) */
static bool g_saved_ok, g_active, g_colors;
/* Written by the signal handler: endwin is not async-signal-safe, so the
 * escape sequences that leave the screen are looked up in advance. */
static char g_restore[256];
static size_t g_restore_len;
static char g_ctype[64];          /* the program's LC_CTYPE, given back on close */

static void add_cap(const char *name)
{
    char *s = tigetstr((char *)name);
    if (!s || s == (char *)-1) return;
    size_t l = strlen(s);
    if (g_restore_len + l < sizeof g_restore) {
        memcpy(g_restore + g_restore_len, s, l);
        g_restore_len += l;
    }
}

static void on_fatal(int sig)
{
    if (g_active) {
        if (g_restore_len) (void)!write(g_fd, g_restore, g_restore_len);
        (void)!write(g_fd, "\r\n", 2);
        if (g_saved_ok) tcsetattr(g_fd, TCSANOW, &g_saved);
        g_active = false;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* SIGINT, SIGTERM and SIGHUP are not here: they end the capture (the
 * program's handler), the screen closes and the report is printed. */
static const int g_fatal[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGQUIT};

bool term_open(char *err, size_t errlen)
{
    FILE *out = stdout;
    g_fd = STDOUT_FILENO;
    if (!isatty(STDOUT_FILENO)) { /* the report goes to a file or pipe: draw on the terminal itself */
        g_tty = fopen("/dev/tty", "r+");
        if (g_tty) { out = g_tty; g_fd = fileno(g_tty); }
    }
    if (!isatty(STDIN_FILENO) || !isatty(g_fd)) {
        snprintf(err, errlen, "the screen needs a terminal (use --batch for a report)");
        if (g_tty) fclose(g_tty), g_tty = NULL;
        return false;
    }
    g_saved_ok = tcgetattr(g_fd, &g_saved) == 0;
    /* the terminal's character set (LANG, LC_*), for the screen only: the
     * report printed after it is the same whatever the locale */
    const char *ctype = setlocale(LC_CTYPE, NULL);
    snprintf(g_ctype, sizeof g_ctype, "%s", ctype ? ctype : "C");
    setlocale(LC_CTYPE, "");
#ifdef NFSSCOPE_TUI_WIDE
    text_set_utf8(!strcmp(nl_langinfo(CODESET), "UTF-8"));
#else
    text_set_utf8(false); /* narrow ncurses counts a byte a column */
#endif
    if (!newterm(NULL, out, stdin)) {
        setlocale(LC_CTYPE, g_ctype);
        snprintf(err, errlen, "cannot use the terminal (TERM=%s)", getenv("TERM") ? getenv("TERM") : "unset");
        return false;
    }
    g_restore_len = 0;
    add_cap("sgr0");
    add_cap("cnorm");
    add_cap("rmcup");
    g_active = true;
    for (size_t i = 0; i < sizeof g_fatal / sizeof g_fatal[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(g_fatal[i], &sa, NULL);
    }
    cbreak(); /* not raw: Ctrl-C still ends the capture (and the report follows) */
    noecho();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    g_colors = has_colors() && start_color() == OK;
    if (g_colors) {
        use_default_colors();
        init_pair(1, COLOR_RED, -1);
        init_pair(2, COLOR_YELLOW, -1);
        init_pair(3, COLOR_CYAN, -1);
        init_pair(4, COLOR_BLUE, -1);
    }
    return true;
}

void term_close(void)
{
    if (!g_active) return;
    endwin();
    setlocale(LC_CTYPE, g_ctype);
    g_active = false;
    if (g_tty) fclose(g_tty), g_tty = NULL;
    for (size_t i = 0; i < sizeof g_fatal / sizeof g_fatal[0]; i++) signal(g_fatal[i], SIG_DFL);
}

int term_sev_attr(int sev)
{
    switch (sev) {
    case NS_SEV_CRITICAL: return g_colors ? (int)(COLOR_PAIR(1) | A_BOLD) : (int)(A_BOLD | A_UNDERLINE);
    case NS_SEV_ERROR: return g_colors ? (int)COLOR_PAIR(1) : (int)A_BOLD;
    case NS_SEV_WARNING: return g_colors ? (int)COLOR_PAIR(2) : (int)A_UNDERLINE;
    case NS_SEV_INFO: return g_colors ? (int)COLOR_PAIR(3) : (int)A_NORMAL;
    default: return -1;
    }
}

int term_dim_attr(void) { return g_colors ? (int)COLOR_PAIR(4) : (int)A_NORMAL; }
