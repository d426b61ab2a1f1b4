// A wider OVER for solid colours than pixman 0.42 has: its x86 fast path for a solid source over
// a8r8g8b8 (`over_n_8888`) is SSE2, four pixels an iteration; this is the same arithmetic on
// eight (AVX2), chosen at run time. Translucent layer fills are most of a busy compositor frame.
#include "CSilkBlend.h"

#include <stddef.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

static int detected = -1;

static bool detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    // AVX and OSXSAVE, and the OS saving the XMM and YMM state (XCR0 bits 1 and 2).
    if (!(c & (1u << 27)) || !(c & (1u << 28))) return false;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return false;
    if (__get_cpuid_max(0, NULL) < 7) return false;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 5)) != 0;  // AVX2
}

bool silk_blend_available(void) {
    int v = __atomic_load_n(&detected, __ATOMIC_RELAXED);
    if (v < 0) {
        v = detect() ? 1 : 0;
        __atomic_store_n(&detected, v, __ATOMIC_RELAXED);
    }
    return v == 1;
}

static inline uint32_t over_one(uint32_t d, uint32_t s, uint32_t ia) {
    uint32_t out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t t = ((d >> shift) & 0xff) * ia + 0x80;
        t = ((t >> 8) + t) >> 8;
        uint32_t v = t + ((s >> shift) & 0xff);
        out |= (v > 0xff ? 0xff : v) << shift;
    }
    return out;
}

__attribute__((target("avx2")))
static void over_solid_avx2(uint8_t *base, intptr_t stride, int32_t x, int32_t y, int32_t w, int32_t h, uint32_t src) {
    const uint32_t ia = 255 - (src >> 24);
    const __m256i s = _mm256_set1_epi32((int)src);
    const __m256i a = _mm256_set1_epi16((short)ia);
    const __m256i round = _mm256_set1_epi16(0x80);
    const __m256i low = _mm256_set1_epi16(0x00ff);
    for (int32_t row = 0; row < h; row++) {
        uint32_t *p = (uint32_t *)(base + (intptr_t)(y + row) * stride) + x;
        int32_t i = 0;
        for (; i + 8 <= w; i += 8) {
            __m256i d = _mm256_loadu_si256((const __m256i *)(p + i));
            // Blue and red in the low bytes of 16-bit lanes, green and alpha in the others.
            __m256i br = _mm256_and_si256(d, low);
            __m256i ga = _mm256_srli_epi16(d, 8);
            br = _mm256_add_epi16(_mm256_mullo_epi16(br, a), round);
            ga = _mm256_add_epi16(_mm256_mullo_epi16(ga, a), round);
            br = _mm256_srli_epi16(_mm256_add_epi16(br, _mm256_srli_epi16(br, 8)), 8);
            ga = _mm256_srli_epi16(_mm256_add_epi16(ga, _mm256_srli_epi16(ga, 8)), 8);
            __m256i r = _mm256_or_si256(br, _mm256_slli_epi16(ga, 8));
            _mm256_storeu_si256((__m256i *)(p + i), _mm256_adds_epu8(r, s));
        }
        for (; i < w; i++) p[i] = over_one(p[i], src, ia);
    }
}

bool silk_blend_over_solid(void *pixels, intptr_t stride, int32_t x, int32_t y, int32_t width, int32_t height,
                           uint32_t src) {
    if (!silk_blend_available()) return false;
    if (width <= 0 || height <= 0 || pixels == NULL) return true;
    over_solid_avx2((uint8_t *)pixels, stride, x, y, width, height, src);
    return true;
}

#else

bool silk_blend_available(void) { return false; }

bool silk_blend_over_solid(void *pixels, intptr_t stride, int32_t x, int32_t y, int32_t width, int32_t height,
                           uint32_t src) {
    (void)pixels; (void)stride; (void)x; (void)y; (void)width; (void)height; (void)src;
    return false;
}

#endif
