// CSilkPNG: SilkRaster's PNG writer, one C function around libpng's write API, so that libpng's
// errors (reported by longjmp) never cross a Swift frame.
#ifndef CSILKPNG_H
#define CSILKPNG_H

#include <stddef.h>
#include <stdint.h>

/// Encodes a premultiplied ARGB32 image (native-endian 32-bit pixels, rows `stride` bytes apart)
/// as an 8-bit PNG with libpng: colour type RGB when every pixel has alpha 255, else RGBA with
/// straight alpha; zlib at `level` (0–9); libpng's adaptive filtering over None, Sub, Up, Average
/// and Paeth. Rows are converted one at a time into a row buffer and streamed to libpng, whose
/// output goes into one growing malloc'd buffer.
///
/// Returns 0 and sets `*png` (free it with free()) and `*size`; on failure returns -1, sets
/// `*png` to NULL and writes libpng's (or the allocator's) message, NUL-terminated, into
/// `message` (`message_size` bytes). Any thread; the function keeps no state.
int silk_png_encode_argb32(const void *pixels, int width, int height, size_t stride, int level,
                           uint8_t **png, size_t *size, char *message, size_t message_size);

#endif
