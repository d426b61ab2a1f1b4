/* cairo_card — the peer of `silk snapshot card`: the same rainforest card (360×420) drawn with
 * cairo + Pango the way a C developer would, written as a PNG. Used by `make bench-peers` to
 * compare whole-process CPU (start-up, decode, blur, text, PNG) with Silk's.
 *
 *   cairo_card PHOTO.jpg OUT.png      the card of the first catalogue entry (ladybird)
 *   cairo_card --noop                 returns at once (the cost of reaching main)
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

static double text(cairo_t *cr, const char *s, const char *font, double x, double y, double width,
                   double height, int lines, double spacing, int bottom) {
    PangoLayout *l = pango_cairo_create_layout(cr);
    PangoFontDescription *fd = pango_font_description_from_string(font);
    pango_layout_set_font_description(l, fd);
    pango_layout_set_text(l, s, -1);
    pango_layout_set_width(l, (int)(width * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);
    pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
    if (spacing > 0) pango_layout_set_line_spacing(l, (float)spacing);
    pango_layout_set_height(l, lines > 0 ? -lines : (int)(height * PANGO_SCALE));
    int pw, ph; pango_layout_get_pixel_size(l, &pw, &ph);
    cairo_move_to(cr, x, bottom ? y - ph : y);
    cairo_set_source_rgb(cr, 1, 1, 1);
    pango_cairo_show_layout(cr, l);
    pango_font_description_free(fd);
    g_object_unref(l);
    return ph;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--noop") == 0) return 0;
    if (argc < 3) { fprintf(stderr, "usage: cairo_card PHOTO.jpg OUT.png | --noop\n"); return 2; }
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

    double ph = W * 2.0 / 3.0;
    aspect_fill(cr, photo, 0, 0, W, ph);
    cairo_pattern_t *g = cairo_pattern_create_linear(0, ph / 2, 0, ph);
    cairo_pattern_add_color_stop_rgba(g, 0, 0, 0, 0, 0);
    cairo_pattern_add_color_stop_rgba(g, 1, 0, 0, 0, 0.75);
    cairo_rectangle(cr, 0, ph / 2, W, ph / 2);
    cairo_set_source(cr, g); cairo_fill(cr);
    cairo_pattern_destroy(g);

    text(cr, TITLE, "DejaVu Sans Bold 26px", 16, ph - 12, W - 32, 0, 2, 0, 1);
    text(cr, DESCRIPTION, "DejaVu Sans 14px", 16, ph + 12, W - 32, H - ph - 24, 0, 1.15, 0);
    cairo_destroy(cr);
    int rc = cairo_surface_write_to_png(card, argv[2]) == CAIRO_STATUS_SUCCESS ? 0 : 1;
    cairo_surface_destroy(card); cairo_surface_destroy(back); cairo_surface_destroy(photo);
    return rc;
}
