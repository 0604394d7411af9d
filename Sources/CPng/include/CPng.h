#ifndef CPNG_H
#define CPNG_H
// PNG encode/decode through libpng's simplified API (no setjmp reaches Swift).
#include <stddef.h>
#include <stdint.h>

/// Encodes `width`x`height` RGBA8 pixels (rows `stride` bytes apart) as PNG into a malloc'd buffer.
/// Returns 0 and sets *out/*out_size (free with cpng_free); else copies libpng's message to `error`.
int cpng_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                     uint8_t **out, size_t *out_size, char *error, size_t error_size);

/// Decodes a PNG held in memory to RGBA8 (malloc'd, free with cpng_free).
int cpng_decode_rgba(const uint8_t *data, size_t size, uint8_t **pixels, uint32_t *width,
                     uint32_t *height, char *error, size_t error_size);

void cpng_free(void *pointer);
#endif
