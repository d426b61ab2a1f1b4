// PNG row preparation for SilkRaster's PNG writer (see CSilkLinux.h).
#include "CSilkLinux.h"
#include <stdlib.h>

static inline int cost(uint8_t v) { return v < 128 ? v : 256 - v; }

static inline uint8_t paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

void silk_png_filter_row(const uint32_t *argb, int width, int opaque, uint8_t *cur,
                         const uint8_t *up, uint8_t *out) {
    const int bpp = opaque ? 3 : 4, n = width * bpp;
    uint8_t *o = cur;
    for (int x = 0; x < width; x++) {
        uint32_t p = argb[x], a = p >> 24;
        uint32_t r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
        if (opaque) { o[0] = (uint8_t)r; o[1] = (uint8_t)g; o[2] = (uint8_t)b; o += 3; continue; }
        if (a == 255) { o[0] = (uint8_t)r; o[1] = (uint8_t)g; o[2] = (uint8_t)b; o[3] = 255; }
        else if (a == 0) { o[0] = o[1] = o[2] = o[3] = 0; }
        else {
            uint32_t v;
            v = (r * 255 + a / 2) / a; o[0] = (uint8_t)(v > 255 ? 255 : v);
            v = (g * 255 + a / 2) / a; o[1] = (uint8_t)(v > 255 ? 255 : v);
            v = (b * 255 + a / 2) / a; o[2] = (uint8_t)(v > 255 ? 255 : v);
            o[3] = (uint8_t)a;
        }
        o += 4;
    }
    // One pass for the four sums, then the chosen filter.
    int sums[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        int left = i >= bpp ? cur[i - bpp] : 0, above = up[i], corner = i >= bpp ? up[i - bpp] : 0;
        sums[0] += cost(cur[i]);
        sums[1] += cost((uint8_t)(cur[i] - left));
        sums[2] += cost((uint8_t)(cur[i] - above));
        sums[3] += cost((uint8_t)(cur[i] - paeth(left, above, corner)));
    }
    int best = 0;
    for (int f = 1; f < 4; f++) if (sums[f] < sums[best]) best = f;
    static const uint8_t type[4] = {0, 1, 2, 4};
    out[0] = type[best];
    uint8_t *d = out + 1;
    switch (best) {
    case 0: for (int i = 0; i < n; i++) d[i] = cur[i]; break;
    case 1: for (int i = 0; i < n; i++) d[i] = (uint8_t)(cur[i] - (i >= bpp ? cur[i - bpp] : 0)); break;
    case 2: for (int i = 0; i < n; i++) d[i] = (uint8_t)(cur[i] - up[i]); break;
    default:
        for (int i = 0; i < n; i++)
            d[i] = (uint8_t)(cur[i] - paeth(i >= bpp ? cur[i - bpp] : 0, up[i], i >= bpp ? up[i - bpp] : 0));
    }
}

int silk_argb_is_opaque(const void *data, int width, int height, size_t stride) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)((const uint8_t *)data + (size_t)y * stride);
        uint32_t all = 0xff000000u;
        for (int x = 0; x < width; x++) all &= row[x];
        if ((all & 0xff000000u) != 0xff000000u) return 0;
    }
    return 1;
}
