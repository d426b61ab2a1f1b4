#ifndef CSILKBLEND_H
#define CSILKBLEND_H

#include <stdbool.h>
#include <stdint.h>

/// Whether `silk_blend_over_solid` has a kernel on this CPU (x86-64 with AVX2 and an OS that
/// saves its registers). Elsewhere (arm64 included) callers use pixman, whose NEON and SSE2
/// paths are its own.
bool silk_blend_available(void);

/// Composites the premultiplied a8r8g8b8 pixel `src` OVER the `width` × `height` pixels at
/// (`x`, `y`) of a 32-bit-per-pixel buffer whose rows are `stride` bytes apart, eight pixels
/// at a time: dest = src + dest × (255 − alpha(src)) / 255 per channel, with pixman's rounding
/// (t = d × a + 0x80; (t + (t >> 8)) >> 8) and its saturating add — the same bytes as pixman's
/// `over_n_8888` fast path, which `SolidBlendTests` checks exhaustively. The caller clips the
/// rectangle to the buffer. Returns false, touching nothing, when `silk_blend_available()` is
/// false.
bool silk_blend_over_solid(void *pixels, intptr_t stride, int32_t x, int32_t y, int32_t width, int32_t height,
                           uint32_t src);

#endif
