// imgdiff: compares two images (PNG or binary PPM) for the Wayland end-to-end tests.
//
//   imgdiff --lit IMAGE FRACTION
//   imgdiff A B [--max-mean M] [--max-bad F] [--bad-threshold T] [--region x,y,w,h]
//
// Prints "mean=… bad=…% max=…" over the overlapping area (or the region) and exits 0 when the
// mean absolute channel difference is ≤ M (default 1.5) and the fraction of pixels with any
// channel differing by more than T (default 40) is ≤ F (default 0.005); 1 when not; 2 on errors.
// `--expect-different` inverts the verdict (a change must be visible in the region).
// Sizes must match unless --region is given (then both must contain it).
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int w, h; unsigned char *rgb; } image;

static int load_ppm(const char *path, image *img) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    int maxval;
    if (fscanf(f, "P6 %d %d %d", &img->w, &img->h, &maxval) != 3 || maxval != 255) { fclose(f); return -1; }
    fgetc(f);
    size_t n = (size_t)img->w * img->h * 3;
    img->rgb = malloc(n);
    if (fread(img->rgb, 1, n, f) != n) { fclose(f); return -1; }
    fclose(f);
    return 0;
}

static int load_png(const char *path, image *img) {
    png_image p;
    memset(&p, 0, sizeof p);
    p.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&p, path)) return -1;
    p.format = PNG_FORMAT_RGB;
    img->w = p.width; img->h = p.height;
    img->rgb = malloc(PNG_IMAGE_SIZE(p));
    if (!png_image_finish_read(&p, NULL, img->rgb, 0, NULL)) return -1;
    return 0;
}

static int load(const char *path, image *img) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "imgdiff: cannot open %s\n", path); return -1; }
    char magic[2] = {0};
    size_t got = fread(magic, 1, 2, f);
    fclose(f);
    int r = (got == 2 && magic[0] == 'P' && magic[1] == '6') ? load_ppm(path, img) : load_png(path, img);
    if (r) fprintf(stderr, "imgdiff: cannot read %s\n", path);
    return r;
}

int main(int argc, char **argv) {
    if (argc < 3 || (!strcmp(argv[1], "--lit") && argc < 4)) { fprintf(stderr, "usage: imgdiff A B [--max-mean M] [--max-bad F] [--bad-threshold T] [--region x,y,w,h] [--expect-different]\n"); return 2; }
    double max_mean = 1.5, max_bad = 0.005;
    int threshold = 40, rx = 0, ry = 0, rw = -1, rh = -1, expect_different = 0;
    for (int i = 3; i < argc && strcmp(argv[1], "--lit"); i++) {
        if (!strcmp(argv[i], "--max-mean") && i + 1 < argc) max_mean = atof(argv[++i]);
        else if (!strcmp(argv[i], "--max-bad") && i + 1 < argc) max_bad = atof(argv[++i]);
        else if (!strcmp(argv[i], "--bad-threshold") && i + 1 < argc) threshold = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--region") && i + 1 < argc) sscanf(argv[++i], "%d,%d,%d,%d", &rx, &ry, &rw, &rh);
        else if (!strcmp(argv[i], "--expect-different")) expect_different = 1;
        else { fprintf(stderr, "imgdiff: unknown argument %s\n", argv[i]); return 2; }
    }
    image a, b;
    if (!strcmp(argv[1], "--lit")) {
        // imgdiff --lit IMAGE FRACTION: exit 0 when more than FRACTION of the pixels are not
        // (nearly) black — an output showing a client, not an empty screen.
        if (load(argv[2], &a)) return 2;
        long lit = 0, n = (long)a.w * a.h;
        for (long i = 0; i < n; i++) if (a.rgb[i * 3] + a.rgb[i * 3 + 1] + a.rgb[i * 3 + 2] > 60) lit++;
        printf("%dx%d: %.1f%% lit\n", a.w, a.h, 100.0 * lit / n);
        return (double)lit / n > atof(argv[3]) ? 0 : 1;
    }
    if (load(argv[1], &a) || load(argv[2], &b)) return 2;
    if (rw < 0) {
        if (a.w != b.w || a.h != b.h) {
            printf("size differs: %dx%d vs %dx%d\n", a.w, a.h, b.w, b.h);
            return expect_different ? 0 : 1;
        }
        rw = a.w; rh = a.h;
    }
    if (rx + rw > a.w || ry + rh > a.h || rx + rw > b.w || ry + rh > b.h) {
        fprintf(stderr, "imgdiff: region %d,%d,%d,%d outside %dx%d / %dx%d\n", rx, ry, rw, rh, a.w, a.h, b.w, b.h);
        return 2;
    }
    double sum = 0; long bad = 0; int maxd = 0;
    for (int y = ry; y < ry + rh; y++) {
        for (int x = rx; x < rx + rw; x++) {
            const unsigned char *pa = a.rgb + ((size_t)y * a.w + x) * 3, *pb = b.rgb + ((size_t)y * b.w + x) * 3;
            int worst = 0;
            for (int c = 0; c < 3; c++) {
                int d = abs(pa[c] - pb[c]);
                sum += d;
                if (d > worst) worst = d;
            }
            if (worst > threshold) bad++;
            if (worst > maxd) maxd = worst;
        }
    }
    double n = (double)rw * rh;
    double mean = sum / (n * 3), badf = bad / n;
    printf("%dx%d: mean=%.3f bad=%.3f%% max=%d\n", rw, rh, mean, badf * 100, maxd);
    int same = mean <= max_mean && badf <= max_bad;
    return expect_different ? (same ? 1 : 0) : (same ? 0 : 1);
}
