/* cairo_card — the peer of `silk snapshot card`: the same rainforest card (360×420) drawn with
 * cairo + Pango the way a C developer would, written as a PNG. Used by `make bench-peers` to
 * compare whole-process CPU (start-up, decode, blur, text, PNG) with Silk's.
 *
 *   cairo_card PHOTO.jpg OUT.png      the card of the first catalogue entry (ladybird)
 *   cairo_card --noop                 returns at once (the cost of reaching main)
 *   cairo_card --time-text RUNS       times the card's title and description, layout + draw,
 *                                     cold and warm (median thread CPU ms; see time_text)
 *
 * The card (Tools/SilkScenes/CardNode.swift at 360×420, scale 1): backdrop = the photo
 * aspect-filled to the card and blurred as Silk blurs it (box 57, three passes per axis,
 * clamped edges, saturation ×1.8, 50 % grey at 30 % over); the photo aspect-filled into the top
 * 360×240; a gradient clear → 75 % black over the photo's bottom half; the title (DejaVu Sans
 * Bold 26 px, white, at most two lines, 16 px in, 12 px above the photo's bottom); the
 * description (DejaVu Sans 14 px, line height 1.15, wrapped in 328 px, elided to the space
 * left). The JPEG is decoded at the smallest M/8 scale covering the card (TurboJPEG), as Silk. */
#include <cairo.h>
#include <pango/pangocairo.h>
#include <turbojpeg.h>
#include <stdint.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 360
#define H 420

static const char *TITLE = "Seven-spot ladybird";
static const char *DESCRIPTION = "A beetle the size of a lentil that eats fifty aphids a day. Its bright red wing cases warn birds that it tastes bitter; when threatened it plays dead and bleeds a yellow, foul-smelling fluid from its knees.";

static cairo_surface_t *decode_jpeg(const char *path, int tw, int th) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n);
    if (!buf || fread(buf, 1, n, f) != (size_t)n) { fclose(f); free(buf); return NULL; }
    fclose(f);
    tjhandle tj = tjInitDecompress();
    int w, h, sub, cs;
    if (tjDecompressHeader3(tj, buf, n, &w, &h, &sub, &cs) != 0) { free(buf); return NULL; }
    int count; tjscalingfactor *sf = tjGetScalingFactors(&count);
    int bw = w, bh = h;  /* smallest M/8 scale that still covers the target */
    for (int i = 0; i < count; i++) {
        if (sf[i].denom != 8) continue;
        int sw = TJSCALED(w, sf[i]), sh = TJSCALED(h, sf[i]);
        if (sw >= tw && sh >= th && sw * sh < bw * bh) { bw = sw; bh = sh; }
    }
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, bw, bh);
    tjDecompress2(tj, buf, n, cairo_image_surface_get_data(s), bw, cairo_image_surface_get_stride(s), bh, TJPF_BGRX, 0);
    cairo_surface_mark_dirty(s);
    tjDestroy(tj); free(buf);
    return s;
}

static void aspect_fill(cairo_t *cr, cairo_surface_t *img, double x, double y, double w, double h) {
    double iw = cairo_image_surface_get_width(img), ih = cairo_image_surface_get_height(img);
    double s = w / iw > h / ih ? w / iw : h / ih;
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h); cairo_clip(cr);
    cairo_translate(cr, x + (w - iw * s) / 2, y + (h - ih * s) / 2);
    cairo_scale(cr, s, s);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_paint(cr);
    cairo_restore(cr);
}

/* One box pass of size d along a line of n pixels (4 channels), clamped edges. */
static void box_line(const uint8_t *in, uint8_t *out, int n, int step, int d) {
    int r = d / 2;
    uint32_t acc[4] = {0, 0, 0, 0};
    for (int k = -r; k <= r; k++) {
        int i = k < 0 ? 0 : k >= n ? n - 1 : k;
        for (int c = 0; c < 4; c++) acc[c] += in[i * step + c];
    }
    for (int x = 0; x < n; x++) {
        for (int c = 0; c < 4; c++) out[x * step + c] = (uint8_t)((acc[c] + d / 2) / d);
        int add = x + r + 1, sub = x - r;
        if (add >= n) add = n - 1;
        if (sub < 0) sub = 0;
        for (int c = 0; c < 4; c++) acc[c] += in[add * step + c] - in[sub * step + c];
    }
}

static void blur(cairo_surface_t *s, int d) {
    cairo_surface_flush(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    uint8_t *p = cairo_image_surface_get_data(s);
    int m = w > h ? w : h;
    uint8_t *a = malloc(m * 4), *b = malloc(m * 4);
    for (int y = 0; y < h; y++) {
        uint8_t *row = p + y * stride;
        box_line(row, a, w, 4, d); box_line(a, b, w, 4, d); box_line(b, row, w, 4, d);
    }
    for (int x = 0; x < w; x++) {
        for (int y = 0; y < h; y++) memcpy(a + y * 4, p + y * stride + x * 4, 4);
        box_line(a, b, h, 4, d); box_line(b, a, h, 4, d); box_line(a, b, h, 4, d);
        for (int y = 0; y < h; y++) memcpy(p + y * stride + x * 4, b + y * 4, 4);
    }
    /* saturation ×1.8 (Rec. 709), then 50 % grey at 30 % over */
    for (int y = 0; y < h; y++) {
        uint8_t *row = p + y * stride;
        for (int x = 0; x < w; x++) {
            uint8_t *px = row + x * 4;  /* B G R X */
            double lum = 0.2126 * px[2] + 0.7152 * px[1] + 0.0722 * px[0];
            for (int c = 0; c < 3; c++) {
                double v = lum + 1.8 * (px[c] - lum);
                v = v < 0 ? 0 : v > 255 ? 255 : v;
                px[c] = (uint8_t)(v * 0.7 + 0.5 * 255 * 0.3 + 0.5);
            }
        }
    }
    free(a); free(b);
    cairo_surface_mark_dirty(s);
}

/* time_text's untimed font making: text() lays out "" and does not draw. */
static int draws_text = 1, empty_text = 0;

/* `options` (NULL: the context's defaults) is how time_text empties cairo's glyph cache. */
static double text(cairo_t *cr, const char *s, const char *font, double x, double y, double width,
                   double height, int lines, double spacing, int bottom, const cairo_font_options_t *options) {
    PangoLayout *l = pango_cairo_create_layout(cr);
    if (options) {
        pango_cairo_context_set_font_options(pango_layout_get_context(l), options);
        pango_layout_context_changed(l);
    }
    PangoFontDescription *fd = pango_font_description_from_string(font);
    pango_layout_set_font_description(l, fd);
    pango_layout_set_text(l, empty_text ? "" : s, -1);
    pango_layout_set_width(l, (int)(width * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);
    pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
    if (spacing > 0) pango_layout_set_line_spacing(l, (float)spacing);
    pango_layout_set_height(l, lines > 0 ? -lines : (int)(height * PANGO_SCALE));
    int pw, ph; pango_layout_get_pixel_size(l, &pw, &ph);
    cairo_move_to(cr, x, bottom ? y - ph : y);
    cairo_set_source_rgb(cr, 1, 1, 1);
    if (draws_text) pango_cairo_show_layout(cr, l);
    pango_font_description_free(fd);
    g_object_unref(l);
    return ph;
}

#define PHOTO_H (W * 2.0 / 3.0)
static void title(cairo_t *cr, const cairo_font_options_t *o) {
    text(cr, TITLE, "DejaVu Sans Bold 26px", 16, PHOTO_H - 12, W - 32, 0, 2, 0, 1, o);
}
static void description(cairo_t *cr, const cairo_font_options_t *o) {
    text(cr, DESCRIPTION, "DejaVu Sans 14px", 16, PHOTO_H + 12, W - 32, H - PHOTO_H - 24, 0, 1.15, 0, o);
}

static double thread_cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { WARM, COLD, COLD_NEW_FONT };

/* One timed run; its own function so that callgrind can count each run's instructions:
 * valgrind --tool=callgrind --toggle-collect=timed_piece --dump-after=timed_piece (one profile
 * per run, in the order title cold, warm, description cold, warm, then the new-font runs). */
__attribute__((noinline)) static double timed_piece(void (*piece)(cairo_t *, const cairo_font_options_t *), cairo_t *cr,
                                                    const cairo_font_options_t *o) {
    double t0 = thread_cpu_ms();
    piece(cr, o);
    return thread_cpu_ms() - t0;
}

/* Median thread CPU of `runs` calls of piece(cr, options): options NULL (WARM) or, for a cold run,
 * font options no earlier run used; COLD makes the run's fonts before the clock starts (an
 * empty layout with the same options and font: see time_text), COLD_NEW_FONT inside it. */
static double median_ms(void (*piece)(cairo_t *, const cairo_font_options_t *), cairo_t *cr, int runs, int mode,
                        int *serial) {
    double *t = malloc(sizeof(double) * runs);
    for (int i = 0; i < runs; i++) {
        cairo_font_options_t *o = NULL;
        if (mode != WARM) {
            char v[32];
            snprintf(v, sizeof v, "SLKc=%d", ++*serial);
            o = cairo_font_options_create();
            cairo_font_options_set_variations(o, v);
        }
        if (mode == COLD) { draws_text = 0; empty_text = 1; piece(cr, o); draws_text = 1; empty_text = 0; }
        t[i] = timed_piece(piece, cr, o);
        if (o) cairo_font_options_destroy(o);
    }
    qsort(t, runs, sizeof(double), compare_doubles);
    double m = t[runs / 2];
    free(t);
    return m;
}

/* --time-text RUNS: the card's two texts laid out and drawn (a new PangoLayout, its pixel size,
 * pango_cairo_show_layout into a 360x420 ARGB32 surface), thread CPU time, medians of RUNS, the
 * definitions of `silk raster-bench --only card`'s text pieces:
 *   warm: fonts matched and open, glyphs rasterized and cached (the runs after a first one);
 *   cold: fonts matched and open (fontconfig's match, FT_Face, hb_face kept), but none of the
 *         text's glyphs rasterized yet, as Silk's cold run empties its glyph cache and its
 *         loaded outlines and keeps its fonts.
 * cairo has no call that empties one scaled font's glyphs, and a new PangoFontMap (or
 * pango_fc_font_map_cache_clear) would also redo fontconfig's matching, which Silk's cold run
 * does not. So each cold run gives the layout's context font options no earlier run used (a
 * variation setting "SLKc=N": cairo applies variations only to variable fonts, and DejaVu is
 * not one, so the pixels are the same). The options are part of the key of Pango's fontsets
 * and fonts and of cairo's scaled fonts, so the run gets a new PangoFont and cairo_scaled_font_t
 * over the same FT_Face and hb_face: an empty glyph cache. A new Pango font also costs what
 * Silk's cold run never pays (FcConfigSubstitute for the new fontset key, the font's metrics,
 * which Pango gets by laying out a sample sentence): "cold" makes the font before the clock
 * starts, with an empty-text layout of the same options and font. That sample sentence loads
 * the metrics (FT_Load_Glyph, not the images) of many of the text's glyphs, so this cold figure
 * is, if anything, on Pango's side. "cold, new font" times the font's making too. */
static int time_text(const char *arg) {
    char *end;
    long runs = strtol(arg, &end, 10);
    if (*end || runs < 1 || runs > 100000) { fprintf(stderr, "cairo_card: --time-text %s: expected 1...100000\n", arg); return 2; }
    cairo_surface_t *target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(target);
    int serial = 0;
    title(cr, NULL); description(cr, NULL);  /* fontconfig, fonts and code paths loaded once */
    double tc = median_ms(title, cr, runs, COLD, &serial), tw = median_ms(title, cr, runs, WARM, &serial);
    double dc = median_ms(description, cr, runs, COLD, &serial), dw = median_ms(description, cr, runs, WARM, &serial);
    double tn = median_ms(title, cr, runs, COLD_NEW_FONT, &serial), dn = median_ms(description, cr, runs, COLD_NEW_FONT, &serial);
    printf("pango title shape + draw, cold / warm glyphs:        %8.3f / %.3f ms\n", tc, tw);
    printf("pango description shape + draw, cold / warm glyphs:  %8.3f / %.3f ms\n", dc, dw);
    printf("pango title / description, cold with a new font:     %8.3f / %.3f ms\n", tn, dn);
    cairo_destroy(cr);
    cairo_surface_destroy(target);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--noop") == 0) return 0;
    if (argc > 1 && strcmp(argv[1], "--time-text") == 0) {
        if (argc != 3) { fprintf(stderr, "usage: cairo_card --time-text RUNS\n"); return 2; }
        return time_text(argv[2]);
    }
    if (argc < 3) { fprintf(stderr, "usage: cairo_card PHOTO.jpg OUT.png | --noop | --time-text RUNS\n"); return 2; }
    cairo_surface_t *card = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(card);
    cairo_set_source_rgb(cr, 0x3a / 255.0, 0x5a / 255.0, 0x40 / 255.0);
    cairo_paint(cr);

    cairo_surface_t *photo = decode_jpeg(argv[1], W, H);
    if (!photo) return 1;
    cairo_surface_t *back = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *bc = cairo_create(back);
    aspect_fill(bc, photo, 0, 0, W, H);
    cairo_destroy(bc);
    blur(back, 57);
    cairo_set_source_surface(cr, back, 0, 0);
    cairo_paint(cr);

    double ph = PHOTO_H;
    aspect_fill(cr, photo, 0, 0, W, ph);
    cairo_pattern_t *g = cairo_pattern_create_linear(0, ph / 2, 0, ph);
    cairo_pattern_add_color_stop_rgba(g, 0, 0, 0, 0, 0);
    cairo_pattern_add_color_stop_rgba(g, 1, 0, 0, 0, 0.75);
    cairo_rectangle(cr, 0, ph / 2, W, ph / 2);
    cairo_set_source(cr, g); cairo_fill(cr);
    cairo_pattern_destroy(g);

    title(cr, NULL);
    description(cr, NULL);
    cairo_destroy(cr);
    int rc = cairo_surface_write_to_png(card, argv[2]) == CAIRO_STATUS_SUCCESS ? 0 : 1;
    cairo_surface_destroy(card); cairo_surface_destroy(back); cairo_surface_destroy(photo);
    return rc;
}
