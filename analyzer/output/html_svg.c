/* Inline SVG primitives (html_svg.h). */
#include "html_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                      "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

const char *svg_color(unsigned i) { return palette[i % (sizeof palette / sizeof palette[0])]; }

/* A coordinate with one decimal, without printf's floating point (a page
 * has tens of thousands of them): the same digits as "%.1f" would print. */
static void num(FILE *f, double v)
{
    long long t = llround(v * 10);
    char buf[32], *p = buf + sizeof buf;
    bool neg = t < 0;
    unsigned long long u = neg ? (unsigned long long)-t : (unsigned long long)t;
    *--p = 0;
    *--p = (char)('0' + u % 10);
    *--p = '.';
    u /= 10;
    do { *--p = (char)('0' + u % 10); u /= 10; } while (u);
    if (neg) *--p = '-';
    fputs(p, f);
}

void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

void chart_begin(struct chart *c, FILE *f, const char *id, const char *title, int h)
{
    memset(c, 0, sizeof *c);
    c->f = f;
    c->h = h ? h : SVG_H;
    fprintf(f, "<figure class=\"chart\" id=\"");
    html_text(f, id);
    fprintf(f, "\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">"
               "<text class=\"title\" x=\"%d\" y=\"18\">",
            SVG_W, c->h, SVG_W, c->h, SVG_LEFT);
    html_text(f, title);
    fputs("</text>\n", f);
}

double chart_x(const struct chart *c, double x)
{
    double w = SVG_W - SVG_LEFT - SVG_RIGHT, f;
    if (c->xlog) f = x > 0 ? (log10(x) - log10(c->x0)) / (log10(c->x1) - log10(c->x0)) : 0;
    else f = c->x1 > c->x0 ? (x - c->x0) / (c->x1 - c->x0) : 0;
    if (f < 0) f = 0;
    if (f > 1) f = 1;
    return SVG_LEFT + f * w;
}

double chart_y(const struct chart *c, double y)
{
    double h = c->h - SVG_TOP - SVG_BOTTOM, f;
    if (c->ylog) f = y > 0 ? (log10(y) - log10(c->y0)) / (log10(c->y1) - log10(c->y0)) : 0;
    else f = c->y1 > c->y0 ? (y - c->y0) / (c->y1 - c->y0) : 0;
    if (f < 0) f = 0;
    if (f > 1) f = 1;
    return c->h - SVG_BOTTOM - f * h;
}

/* 1, 2 or 5 times a power of ten, about range/n. */
static double nice_step(double range, int n)
{
    double raw = range / n, p = pow(10, floor(log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* A y step of about a fifth of the range; whole counts never step by less than one. */
static double y_step(const struct chart *c, double range)
{
    double st = nice_step(range, 5);
    return c->yint && st < 1 ? 1 : st;
}

static void tick_label(FILE *f, double v, double step)
{
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (dec > 6) dec = 6;
    fprintf(f, "%.*f", dec, v);
}

void chart_axes(struct chart *c, double x0, double x1, double y0, double y1, bool ylog, const char *xlabel,
                const char *ylabel)
{
    FILE *f = c->f;
    if (c->xlog) {
        if (!(x0 > 0)) x0 = 1e-3;
        x0 = pow(10, floor(log10(x0)));
        x1 = pow(10, ceil(log10(x1 > x0 ? x1 : x0 * 10)));
    }
    if (!(x1 > x0)) x1 = x0 + 1;
    if (ylog) {
        if (!(y0 > 0)) y0 = 1;
        y0 = pow(10, floor(log10(y0)));
        y1 = pow(10, ceil(log10(y1 > y0 ? y1 : y0 * 10)));
        if (y1 <= y0) y1 = y0 * 10;
    } else {
        if (!(y1 > y0)) y1 = y0 + 1;
        double st = y_step(c, y1 - y0);
        if (!c->ycat) y1 = ceil(y1 / st) * st;
    }
    c->x0 = x0; c->x1 = x1; c->y0 = y0; c->y1 = y1; c->ylog = ylog;
    int L = SVG_LEFT, R = SVG_W - SVG_RIGHT, T = SVG_TOP, B = c->h - SVG_BOTTOM;
    fprintf(f, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", L, T, R - L, B - T);
    double xs = nice_step(x1 - x0, 8);
    if (c->xlog)
        for (double v = x0; v <= x1 * 1.0001; v *= 10) {
            double px = chart_x(c, v);
            fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
                    px, T, px, B, px, B + 14, v);
        }
    else
    for (double v = ceil(x0 / xs) * xs; v <= x1 + xs * 1e-9; v += xs) {
        double px = chart_x(c, v);
        fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
                px, T, px, B, px, B + 14);
        tick_label(f, fabs(v) < xs * 1e-9 ? 0 : v, xs);
        fputs("</text>\n", f);
    }
    if (c->ycat) {
        /* the caller labels its rows */
    } else if (ylog) {
        /* one or two decades: 2 and 5 as well, or the axis reads only "0.1" and "1" */
        static const double steps[] = {1, 2, 5};
        int per = log10(y1 / y0) < 2.5 ? 3 : 1;
        for (double d = y0; d <= y1 * 1.0001; d *= 10)
            for (int k = 0; k < per; k++) {
                double v = d * steps[k];
                if (v > y1 * 1.0001) break;
                double py = chart_y(c, v);
                fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                        L, py, R, py, L - 4, py + 4, v);
            }
    } else {
        double ys = y_step(c, y1 - y0);
        for (double v = y0; v <= y1 + ys * 1e-9; v += ys) {
            double py = chart_y(c, v);
            fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
                    L, py, R, py, L - 4, py + 4);
            tick_label(f, v, ys);
            fputs("</text>\n", f);
        }
    }
    fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (L + R) / 2, c->h - 8);
    html_text(f, xlabel);
    fprintf(f, "</text><text class=\"axis\" transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">", (T + B) / 2);
    html_text(f, ylabel);
    fputs("</text>\n", f);
}

void chart_legend(struct chart *c, const char *color, const char *label, bool dashed)
{
    int x = SVG_W - SVG_RIGHT + 14, y = SVG_TOP + 8 + 16 * c->nlegend++;
    fprintf(c->f, "<g class=\"legend\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"%s/>"
                  "<text x=\"%d\" y=\"%d\">",
            x, y, x + 18, y, color, dashed ? " stroke-dasharray=\"5 3\"" : "", x + 24, y + 4);
    html_text(c->f, label);
    fputs("</text></g>\n", c->f);
}

/* 1: y lies above the axis's top; -1: below its bottom (on a log axis, 0
 * and less too); 0: on the axis. */
static int beyond(const struct chart *c, double y)
{
    if (c->ycat) return 0;
    if (c->ylog) return !(y > 0) || y < c->y0 * (1 - 1e-9) ? -1 : y > c->y1 * (1 + 1e-9) ? 1 : 0;
    double tol = (c->y1 - c->y0) * 1e-9;
    return y < c->y0 - tol ? -1 : y > c->y1 + tol ? 1 : 0;
}

/* A value as people read it: "31,010", "1,100", "2.5", "0.069", "0". */
static void fmt_value(char *buf, size_t n, double v)
{
    if (!(fabs(v) >= 1000)) { snprintf(buf, n, "%.3g", v); return; }
    char d[32];
    int len = snprintf(d, sizeof d, "%.0f", fabs(v)), o = 0, first = len % 3 ? len % 3 : 3;
    if (v < 0 && o + 1 < (int)n) buf[o++] = '-';
    for (int i = 0; i < len && o + 2 < (int)n; i++) {
        if (i && (i - first) % 3 == 0) buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = 0;
}

/* A value beyond the y axis at x pixel px: a triangle on the edge pointing
 * past it (one per place), its value on hover; counted for the caption. */
static void edge_mark(struct chart *c, double px, double y, int side, const char *color)
{
    if (side > 0 && (!c->nabove || y > c->above_max)) c->above_max = y;
    if (side < 0 && (!c->nbelow || y < c->below_min)) c->below_min = y;
    for (int i = 0; i < c->nmarks; i++) /* a p50 and a p99 in one place: one triangle, one point */
        if (fabs(c->marks[i].px - px) < 0.5 && c->marks[i].above == (side > 0)) return;
    if (side > 0) c->nabove++;
    else c->nbelow++;
    if (c->nmarks == CHART_EDGE_MARKS) return;
    c->marks[c->nmarks++] = (struct chart_mark){(float)px, side > 0};
    double tip = side > 0 ? SVG_TOP : c->h - SVG_BOTTOM, base = tip + (side > 0 ? 9 : -9);
    char v[32];
    fmt_value(v, sizeof v, y);
    fprintf(c->f, "<path class=\"clipped %s\" d=\"M%.1f %.1f L%.1f %.1f L%.1f %.1f Z\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"1\">"
                  "<title>%s%s%s: %s the axis</title></path>\n",
            side > 0 ? "above" : "below", px - 5, base, px, tip, px + 5, base, color, v, c->yunit ? " " : "",
            c->yunit ? c->yunit : "", side > 0 ? "above" : "below");
}

void chart_line(struct chart *c, const double *x, const double *y, int n, const char *color, bool dashed, bool step,
                const char *cls)
{
    bool open = false;
    double lasty = 0;
    for (int i = 0; i < n; i++) {
        bool gap = y[i] < 0; /* no value: 0 on a log axis is a value below it */
        if (gap) {
            if (open) fputs("\"/>\n", c->f);
            open = false;
            continue;
        }
        double px = chart_x(c, x[i]), py = chart_y(c, y[i]);
        int side = beyond(c, y[i]);
        if (side) edge_mark(c, px, y[i], side, color);
        if (!open) {
            fprintf(c->f, "<path class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%g\"%s d=\"M", cls, color,
                    c->line_w > 0 ? c->line_w : 2, dashed ? " stroke-dasharray=\"5 3\"" : "");
            num(c->f, px);
            fputc(' ', c->f);
            num(c->f, py);
            open = true;
        } else if (step) {
            fputs(" H", c->f);
            num(c->f, px);
            fputs(" V", c->f);
            num(c->f, py);
        } else {
            fputs(" L", c->f);
            num(c->f, px);
            fputc(' ', c->f);
            num(c->f, py);
        }
        lasty = py;
    }
    (void)lasty;
    if (open) fputs("\"/>\n", c->f);
}

void chart_band(struct chart *c, double x0, double x1, const char *color, const char *label)
{
    double a = chart_x(c, x0), b = chart_x(c, x1);
    if (b - a < 2) b = a + 2;
    fprintf(c->f, "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.15\"><title>",
            a, SVG_TOP, b - a, c->h - SVG_TOP - SVG_BOTTOM, color);
    html_text(c->f, label);
    fputs("</title></rect>\n", c->f);
    if (c->nbands < CHART_BAND_LABELS) {
        struct chart_label *l = &c->bands[c->nbands++];
        l->x = a + 2;
        l->color = color;
        snprintf(l->text, sizeof l->text, "%s", label);
    }
}

/* Band labels in rows below the plot's top, each where it overlaps no other
 * label, on a white outline so that the lines under them do not strike
 * through them (they are drawn after the lines). */
static void band_labels(struct chart *c)
{
    enum { ROWS = CHART_BAND_ROWS };
    const double char_w = 6.8; /* 10 px sans-serif capitals and digits, generously */
    double row_end[ROWS];
    int hidden = 0;
    for (int r = 0; r < ROWS; r++) row_end[r] = -1e9;
    for (int i = 0; i < c->nbands; i++) {
        const struct chart_label *l = &c->bands[i];
        double w = char_w * (double)strlen(l->text), x = l->x;
        int row = -1;
        for (int r = 0; r < ROWS && row < 0; r++)
            if (row_end[r] + 8 <= x) row = r;
        if (row < 0) { /* every row taken at x: after the row that ends first, if the plot has room */
            row = 0;
            for (int r = 1; r < ROWS; r++)
                if (row_end[r] < row_end[row]) row = r;
            x = row_end[row] + 8;
        }
        if (x + w > SVG_W - SVG_RIGHT) { hidden++; continue; }
        row_end[row] = x + w;
        fprintf(c->f, "<text class=\"bandlabel\" x=\"%.1f\" y=\"%d\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">",
                x, SVG_TOP + 11 + CHART_BAND_ROW_H * row, l->color);
        html_text(c->f, l->text);
        fputs("</text>\n", c->f);
    }
    if (hidden)
        fprintf(c->f, "<text class=\"bandlabel\" x=\"%d\" y=\"%d\">%d more shaded span%s: hover for %s</text>\n",
                SVG_W - SVG_RIGHT + 14, c->h - SVG_BOTTOM, hidden, hidden == 1 ? "" : "s", hidden == 1 ? "its name" : "their names");
}

double chart_band_headroom(const struct chart *c)
{
    double plot = c->h - SVG_TOP - SVG_BOTTOM, rows = CHART_BAND_ROWS * CHART_BAND_ROW_H + 4;
    return plot / (plot - rows);
}

void chart_rect(struct chart *c, double x0, double x1, double y0, double y1, const char *color, const char *title)
{
    double a = chart_x(c, x0), b = chart_x(c, x1), top = chart_y(c, y1), bot = chart_y(c, y0);
    fputs("<rect class=\"bar\" x=\"", c->f);
    num(c->f, a);
    fputs("\" y=\"", c->f);
    num(c->f, top);
    fputs("\" width=\"", c->f);
    num(c->f, b - a > 0.5 ? b - a : 0.5);
    fputs("\" height=\"", c->f);
    num(c->f, bot - top);
    fprintf(c->f, "\" fill=\"%s\">", color);
    if (title) {
        fputs("<title>", c->f);
        html_text(c->f, title);
        fputs("</title>", c->f);
    }
    fputs("</rect>\n", c->f);
}

void chart_dot(struct chart *c, double x, double y, const char *color, const char *title)
{
    /* as wide as the line it stands for (at least 3): equal dots nest as rings */
    int side = beyond(c, y);
    if (side) { edge_mark(c, chart_x(c, x), y, side, color); return; }
    double r = c->line_w > 0 ? c->line_w / 2 + 2 : 3;
    fprintf(c->f, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"%g\" fill=\"%s\"%s>", chart_x(c, x), chart_y(c, y), r, color,
            c->line_w > 0 ? " stroke=\"#fff\" stroke-width=\"1\"" : "");
    if (title) {
        fputs("<title>", c->f);
        html_text(c->f, title);
        fputs("</title>", c->f);
    }
    fputs("</circle>\n", c->f);
}

void chart_ring(struct chart *c, double x, double y, const char *color)
{
    int side = beyond(c, y);
    if (side) { edge_mark(c, chart_x(c, x), y, side, color); return; }
    double r = c->line_w > 0 ? c->line_w / 2 + 2 : 3;
    fprintf(c->f, "<circle class=\"dot ring\" cx=\"%.1f\" cy=\"%.1f\" r=\"%g\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
            chart_x(c, x), chart_y(c, y), r, color);
}

void chart_vmark(struct chart *c, double x, const char *color, const char *title, bool tall)
{
    double px = chart_x(c, x);
    int B = c->h - SVG_BOTTOM;
    fprintf(c->f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%d\">",
            px, tall ? SVG_TOP : B - 10, px, B, color, tall ? 2 : 3);
    if (title) {
        fputs("<title>", c->f);
        html_text(c->f, title);
        fputs("</title>", c->f);
    }
    fputs("</line>\n", c->f);
}

void chart_end(struct chart *c, const char *caption)
{
    band_labels(c);
    fputs("</svg>", c->f);
    if (caption || c->nabove || c->nbelow) {
        fputs("<figcaption>", c->f);
        if (caption) html_text(c->f, caption);
        char v[32];
        const char *u = c->yunit ? c->yunit : "", *sp = c->yunit ? " " : "";
        if (c->nabove) {
            fmt_value(v, sizeof v, c->above_max);
            fprintf(c->f, "%s%d point%s above the axis's top, up to %s%s%s: \xe2\x96\xb2 on its edge.", caption ? " " : "",
                    c->nabove, c->nabove == 1 ? "" : "s", v, sp, u);
        }
        if (c->nbelow && c->ylog && !(c->below_min > 0)) {
            fprintf(c->f, "%s%d point%s of 0%s%s, below the log axis (which has no 0): \xe2\x96\xbc on its bottom edge.",
                    caption || c->nabove ? " " : "", c->nbelow, c->nbelow == 1 ? "" : "s", sp, u);
        } else if (c->nbelow) {
            fmt_value(v, sizeof v, c->below_min);
            fprintf(c->f, "%s%d point%s below the axis's bottom, down to %s%s%s: \xe2\x96\xbc on its edge.",
                    caption || c->nabove ? " " : "", c->nbelow, c->nbelow == 1 ? "" : "s", v, sp, u);
        }
        fputs("</figcaption>", c->f);
    }
    fputs("</figure>\n", c->f);
}

void chart_none(FILE *f, const char *id, const char *sentence)
{
    fputs("<p class=\"nochart\" id=\"", f);
    html_text(f, id);
    fputs("\">", f);
    html_text(f, sentence);
    fputs("</p>\n", f);
}
