// SilkRaster's PNG writer over libpng (see CSilkPNG.h).
#include "CSilkPNG.h"
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Where libpng's output and error message go; lives in the caller of the function that calls
/// setjmp, so its fields keep their values across libpng's longjmp.
typedef struct {
    uint8_t *data;
    size_t size, capacity;
    char *message;
    size_t message_size;
} silk_png_sink;

static void sink_write(png_structp png, png_bytep bytes, size_t n) {
    silk_png_sink *sink = png_get_io_ptr(png);
    if (n > sink->capacity - sink->size) {
        size_t capacity = sink->capacity;
        while (n > capacity - sink->size) {
            if (capacity > SIZE_MAX / 2) png_error(png, "PNG larger than memory");
            capacity *= 2;
        }
        uint8_t *grown = realloc(sink->data, capacity);
        if (grown == NULL) png_error(png, "out of memory for the PNG");
        sink->data = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->data + sink->size, bytes, n);
    sink->size += n;
}

static void sink_flush(png_structp png) { (void)png; }

static void sink_error(png_structp png, png_const_charp text) {
    silk_png_sink *sink = png_get_error_ptr(png);
    snprintf(sink->message, sink->message_size, "%s", text);
    png_longjmp(png, 1);
}

static void sink_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static int argb_is_opaque(const uint8_t *pixels, int width, int height, size_t stride) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(pixels + (size_t)y * stride);
        uint32_t all = 0xff000000u;
        for (int x = 0; x < width; x++) all &= row[x];
        if ((all & 0xff000000u) != 0xff000000u) return 0;
    }
    return 1;
}

/// One row of premultiplied ARGB32 as RGB bytes (opaque) or straight-alpha RGBA bytes.
static void argb_row_to_png(const uint32_t *argb, int width, int opaque, uint8_t *o) {
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
}

/// The whole libpng sequence. Only `png`, `info` and `row` are live across setjmp, and none of
/// them is assigned after it.
static int encode(silk_png_sink *sink, const uint8_t *pixels, int width, int height, size_t stride,
                  int level, int opaque, uint8_t *row) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, sink_error, sink_warning);
    if (png == NULL) {
        snprintf(sink->message, sink->message_size, "libpng could not create a write struct");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        snprintf(sink->message, sink->message_size, "libpng could not create an info struct");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, sink, sink_write, sink_flush);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_ALL_FILTERS);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        argb_row_to_png((const uint32_t *)(pixels + (size_t)y * stride), width, opaque, row);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

int silk_png_encode_argb32(const void *pixels, int width, int height, size_t stride, int level,
                           uint8_t **png, size_t *size, char *message, size_t message_size) {
    *png = NULL;
    *size = 0;
    if (message_size > 0) message[0] = '\0';
    if (width <= 0 || height <= 0 || stride / 4 < (size_t)width) {
        snprintf(message, message_size, "bad image size %d x %d (stride %zu)", width, height, stride);
        return -1;
    }
    int opaque = argb_is_opaque(pixels, width, height, stride);
    uint8_t *row = malloc((size_t)width * 4);
    silk_png_sink sink = { malloc(1 << 16), 0, 1 << 16, message, message_size };
    if (row == NULL || sink.data == NULL) {
        free(row);
        free(sink.data);
        snprintf(message, message_size, "out of memory for the PNG");
        return -1;
    }
    int result = encode(&sink, pixels, width, height, stride, level, opaque, row);
    free(row);
    if (result != 0) {
        free(sink.data);
        return -1;
    }
    uint8_t *shrunk = realloc(sink.data, sink.size);
    *png = shrunk != NULL ? shrunk : sink.data;
    *size = sink.size;
    return 0;
}
