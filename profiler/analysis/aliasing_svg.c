// SPDX-License-Identifier: GPL-2.0-or-later
/* aliasing_svg.c — OUT/aliasing.svg. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "profiler/analysis/aliasing_private.h"

/* ---- SVG ---------------------------------------------------------------- */

#define SVG_TOP_ROWS   8     /* functions by exact share */
#define SVG_MAX_ROWS   10    /* plus deviating ones */
#define SVG_NAME_W     120
#define SVG_BAR_W      170
#define SVG_PANEL_W    (SVG_NAME_W + SVG_BAR_W + 60)
#define SVG_ROW_H      22
#define SVG_COLS       4
#define SVG_MARGIN     16
#define SVG_EXACT      "#9e9e9e"
#define SVG_OK         "#3b75af"
#define SVG_BAD        "#c62828"

static void svg_text(GString *out, double x, double y, const char *attrs, const char *text)
{
    char *esc = g_markup_escape_text(text, -1);
    g_string_append_printf(out, "<text x=\"%.1f\" y=\"%.1f\" %s>%s</text>\n", x, y, attrs, esc);
    g_free(esc);
}

/* One panel: the rows' exact and sampled bars at scale xmax. */
static void svg_panel(GString *out, const AliasCore *ac, const AliasPeriod *ap, GArray *rows,
                      double xmax, double x0, double y0)
{
    char buf[160], attrs[64];
    const char *state = ap->verdict == ALIAS_ALIASED ? "ALIASED"
                        : ap->verdict == ALIAS_CONSISTENT ? "consistent"
                        : ap->verdict == ALIAS_INCONCLUSIVE ? "inconclusive" : "no samples";
    g_snprintf(buf, sizeof buf, "period %" PRIu32 ": %s (%" PRIu64 " samples)", ap->period, state,
               ap->samples);
    g_snprintf(attrs, sizeof attrs, "font-weight=\"bold\" fill=\"%s\"",
               ap->verdict == ALIAS_ALIASED ? SVG_BAD : "#2e7d32");
    svg_text(out, x0, y0 + 14, attrs, buf);
    double bx = x0 + SVG_NAME_W, by = y0 + 24, h = rows->len * SVG_ROW_H;
    for (int t = 0; t <= 4; t++) {
        double gx = bx + SVG_BAR_W * t / 4.0;
        g_string_append_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                               "stroke=\"#e0e0e0\"/>\n", gx, by, gx, by + h);
        g_snprintf(buf, sizeof buf, "%.0f%%", 100.0 * xmax * t / 4.0);
        svg_text(out, gx, by + h + 12, "text-anchor=\"middle\" font-size=\"9\" fill=\"#616161\"", buf);
    }
    for (unsigned r = 0; r < rows->len; r++) {
        unsigned func = g_array_index(rows, unsigned, r);
        const AliasFunc *f = alias_period_func(ap, func);
        double ry = by + r * SVG_ROW_H;
        double p = 0.0, q = 0.0;
        const AliasPeriod *any = NULL;
        for (unsigned k = 0; k < ac->nperiods && !any; k++)
            if (alias_period_func(&ac->periods[k], func))
                any = &ac->periods[k];
        if (any)
            p = alias_period_func(any, func)->exact;
        if (f)
            q = f->sampled;
        char *name = g_strdup(alias_func_name(ac, func));
        if (strlen(name) > 18)
            strcpy(name + 15, "...");
        svg_text(out, bx - 4, ry + 14, "text-anchor=\"end\"", name);
        g_free(name);
        double we = SVG_BAR_W * p / xmax, ws = SVG_BAR_W * q / xmax;
        g_string_append_printf(out, "<rect class=\"bar exact\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                               "height=\"8\" fill=\"" SVG_EXACT "\"/>\n", bx, ry + 2, we);
        g_string_append_printf(out, "<rect class=\"bar sampled\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                               "height=\"8\" fill=\"%s\"/>\n", bx, ry + 11, ws,
                               f && f->deviates ? SVG_BAD : SVG_OK);
        if (f && ap->verdict != ALIAS_NO_SAMPLES) {   /* the band as a whisker */
            double l = bx + SVG_BAR_W * f->band_lo / xmax, rr = bx + SVG_BAR_W * fmin(f->band_hi, xmax) / xmax;
            g_string_append_printf(out, "<path d=\"M%.1f %.1fv6M%.1f %.1fH%.1fM%.1f %.1fv6\" "
                                   "stroke=\"#212121\" stroke-width=\"1\" fill=\"none\"/>\n",
                                   l, ry + 12, l, ry + 15, rr, rr, ry + 12);
        }
        g_snprintf(buf, sizeof buf, "%.1f / %.1f", 100.0 * q, 100.0 * p);
        svg_text(out, bx + SVG_BAR_W + 4, ry + 14, "font-size=\"9\" fill=\"#424242\"", buf);
    }
}

GString *aliasing_svg(const AliasAnalysis *a)
{
    GString *body = g_string_new(NULL);
    double y = SVG_MARGIN, width = 2 * SVG_MARGIN + 3 * SVG_PANEL_W / 2.0;
    char buf[200];
    svg_text(body, SVG_MARGIN, y + 14, "font-size=\"15\" font-weight=\"bold\"",
             "nocprof aliasing check: sampled vs exact share of the top functions");
    y += 26;
    /* legend */
    const struct { const char *color, *label; } keys[] = {
        { SVG_EXACT, "exact share (cycles)" },
        { SVG_OK, "sampled share, consistent" },
        { SVG_BAD, "sampled share, deviates" },
    };
    double lx = SVG_MARGIN;
    for (unsigned k = 0; k < G_N_ELEMENTS(keys); k++) {
        g_string_append_printf(body, "<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" width=\"12\" "
                               "height=\"10\" fill=\"%s\"/>\n", lx, y, keys[k].color);
        svg_text(body, lx + 16, y + 9, "", keys[k].label);
        lx += 190;
    }
    g_string_append_printf(body, "<path d=\"M%.1f %.1fv6M%.1f %.1fh24M%.1f %.1fv6\" stroke=\"#212121\" "
                           "fill=\"none\"/>\n", lx, y + 2, lx, y + 5, lx + 24, y + 2);
    svg_text(body, lx + 30, y + 9, "", "band: sampled share that would not deviate");
    width = fmax(width, lx + 320);
    y += 22;
    svg_text(body, SVG_MARGIN, y + 4, "font-size=\"10\" fill=\"#616161\"",
             "labels: sampled % / exact %");
    y += 14;

    for (unsigned c = 0; c < a->ncores; c++) {
        const AliasCore *ac = &a->cores[c];
        if (!ac->elf || !ac->nperiods)
            continue;
        GArray *rows = alias_core_rows(ac, SVG_TOP_ROWS, SVG_MAX_ROWS);
        double xmax = 0.0;
        for (unsigned h = 0; h < ac->nperiods; h++)
            for (unsigned r = 0; r < rows->len; r++) {
                const AliasFunc *f = alias_period_func(&ac->periods[h], g_array_index(rows, unsigned, r));
                if (f)
                    xmax = fmax(xmax, fmax(f->exact, f->sampled));
            }
        xmax = fmin(1.0, fmax(0.1, ceil(xmax * 10.0 - 1e-9) / 10.0));
        y += 12;
        g_snprintf(buf, sizeof buf, "core %u (%s)", ac->id, alias_basename(ac->elf));
        svg_text(body, SVG_MARGIN, y + 14, "font-size=\"13\" font-weight=\"bold\"", buf);
        y += 22;
        double panel_h = 24 + rows->len * SVG_ROW_H + 22;
        unsigned cols = MIN(ac->nperiods, SVG_COLS);
        width = fmax(width, 2 * SVG_MARGIN + cols * SVG_PANEL_W);
        for (unsigned h = 0; h < ac->nperiods; h++) {
            unsigned col = h % SVG_COLS;
            if (h && col == 0)
                y += panel_h;
            svg_panel(body, ac, &ac->periods[h], rows, xmax, SVG_MARGIN + col * SVG_PANEL_W, y);
        }
        y += panel_h;
        g_array_free(rows, TRUE);
    }
    y += SVG_MARGIN;
    GString *out = g_string_new(NULL);
    g_string_append_printf(out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
        "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
        "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
        width, y, width, y, width, y);
    g_string_append_len(out, body->str, (gssize)body->len);
    g_string_append(out, "</svg>\n");
    g_string_free(body, TRUE);
    return out;
}

