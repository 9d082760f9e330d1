/* Inline SVG charts for the HTML page: a plot area with axes, ticks, units
 * and a legend; data drawn in data coordinates. Only what the page's charts
 * need; numbers printed with fixed precision so the page is the same on
 * every run. */
#ifndef NFSSCOPE_OUTPUT_HTML_SVG_H
#define NFSSCOPE_OUTPUT_HTML_SVG_H
#include <stdbool.h>
#include <stdio.h>

#define SVG_W 960
#define SVG_H 260
#define SVG_LEFT 70
#define SVG_RIGHT 290 /* legend column */
#define SVG_TOP 30
#define SVG_BOTTOM 44

#define CHART_BAND_LABELS 16
#define CHART_BAND_ROWS 4 /* rows of band labels at the plot's top */
#define CHART_BAND_ROW_H 12
#define CHART_EDGE_MARKS 64 /* triangles for values beyond the y axis; the rest counted */

struct chart {
    FILE *f;
    double x0, x1, y0, y1; /* data range */
    bool ylog;
    bool xlog;             /* set before chart_axes: decades on x (x0 > 0) */
    bool ycat;             /* set before chart_axes: categories on y, the caller labels them */
    bool yint;             /* set before chart_axes: whole counts on y, ticks a whole step apart */
    int h;                 /* total height */
    double line_w;         /* stroke width of chart_line (0: 2) and the size of chart_dot */
    int nlegend;
    int nbands;            /* band labels, drawn last (chart_end) */
    struct chart_label { double x; const char *color; char text[64]; } bands[CHART_BAND_LABELS];
    /* Values of chart_line, chart_dot and chart_ring beyond the y axis (or
     * 0 and less on a log axis, which has no 0): drawn as a triangle on the
     * edge pointing past it, their value on hover, counted for the caption. */
    const char *yunit;     /* set before drawing: the unit named with them ("ms") */
    int nabove, nbelow;    /* places beyond the axis (a p50 and a p99 in one: one) */
    double above_max, below_min;
    int nmarks;            /* triangles drawn, one per place */
    struct chart_mark { float px; bool above; } marks[CHART_EDGE_MARKS];
};

/* Text with &, <, >, " escaped. */
void html_text(FILE *f, const char *s);
/* Palette colour i (cycles). */
const char *svg_color(unsigned i);

/* Start a chart: <figure id=...><svg ...>, the title. h 0: SVG_H. */
void chart_begin(struct chart *c, FILE *f, const char *id, const char *title, int h);
/* Axes with ticks; ylog: log scale (y0 > 0). xlabel/ylabel carry the units. */
void chart_axes(struct chart *c, double x0, double x1, double y0, double y1, bool ylog, const char *xlabel,
                const char *ylabel);
/* Category axis for bar charts: no x ticks, labels drawn by the caller. */
double chart_x(const struct chart *c, double x);
double chart_y(const struct chart *c, double y);
void chart_legend(struct chart *c, const char *color, const char *label, bool dashed);
/* A line through points (x[i], y[i]); points with y < 0 break the line
 * (no value). A point beyond the y axis is drawn on its edge, with a
 * triangle there (struct chart: yunit). step: hold each value until the next x. */
void chart_line(struct chart *c, const double *x, const double *y, int n, const char *color, bool dashed, bool step,
                const char *cls);
/* A shaded band from x0 to x1 over the plot's height. Its label is drawn by
 * chart_end, over the lines, in the first of four rows where it overlaps no
 * other label (else left to the band's hover text, and counted). */
void chart_band(struct chart *c, double x0, double x1, const char *color, const char *label);
/* What to multiply a linear y axis's top by, before chart_axes, so that the
 * data stays below the rows of band labels. */
double chart_band_headroom(const struct chart *c);
void chart_rect(struct chart *c, double x0, double x1, double y0, double y1, const char *color, const char *title);
void chart_dot(struct chart *c, double x, double y, const char *color, const char *title);
/* An open circle, as large as chart_dot: the dashed series' lone point. */
void chart_ring(struct chart *c, double x, double y, const char *color);
void chart_vmark(struct chart *c, double x, const char *color, const char *title, bool tall);
/* Closes the svg; caption: one sentence under it (may be NULL), followed
 * by how many points lie beyond the y axis and the farthest ("2 points above
 * the axis's top, up to 1,100 ms: ▲ on its edge"). */
void chart_end(struct chart *c, const char *caption);
/* In place of a chart that would have nothing drawn in it (axes alone read
 * as "the data is missing"): one sentence that says why, under the chart's
 * id, so that links to the chart still land on it. */
void chart_none(FILE *f, const char *id, const char *sentence);

#endif
