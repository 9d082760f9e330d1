/* Text on the screen: the columns a string takes and drawing within a
 * width, a cut always marked (an ellipsis on a UTF-8 terminal, "..."
 * elsewhere) so that nothing is shortened silently: "c1,c2,c3" must not
 * pass for the whole list of connections. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui_int.h"

static bool g_utf8;

void text_set_utf8(bool on) { g_utf8 = on; }

int text_cols(const char *s)
{
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80; /* continuation bytes add no column */
    return n;
}

/* Bytes of s's first whole characters that fill at most cols columns. */
static size_t text_bytes(const char *s, int cols)
{
    size_t i = 0;
    for (int c = 0; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) == 0x80) continue;
        if (c++ == cols) break;
    }
    return i;
}

int text_fit(char *buf, size_t n, const char *s, int cols)
{
    if (!n) return 0;
    buf[0] = 0;
    if (cols <= 0) return 0;
    int have = text_cols(s);
    if (have <= cols) {
        snprintf(buf, n, "%s", s);
        return have;
    }
    const char *mark = g_utf8 ? "\xe2\x80\xa6" : "...";
    int mw = g_utf8 ? 1 : 3;
    size_t ml = strlen(mark);
    if (mw > cols) mw = cols, ml = (size_t)cols; /* room for dots only */
    size_t keep = text_bytes(s, cols - mw);
    if (ml >= n) return 0;
    if (keep + ml >= n) keep = n - ml - 1; /* a buffer narrower than the width: still marked */
    memcpy(buf, s, keep);
    memcpy(buf + keep, mark, ml);
    buf[keep + ml] = 0;
    return cols;
}

int text_put(int y, int x, const char *s, int cols)
{
    char buf[1024];
    int w = text_fit(buf, sizeof buf, s, cols);
    mvaddstr(y, x, buf);
    return w;
}
