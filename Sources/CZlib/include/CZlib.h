#ifndef CZLIB_H
#define CZLIB_H
// zlib for RetroArch's compressed save states (RZIP chunks are zlib streams).
#include <stddef.h>
#include <stdint.h>

/// Inflates one zlib stream (`source`, `source_length` bytes) into `dest`, which holds
/// `*dest_length` bytes; on return `*dest_length` is the number written. Returns zlib's code:
/// 0 (Z_OK), -3 damaged data, -5 `dest` too small, -4 out of memory.
int czlib_uncompress(uint8_t *dest, size_t *dest_length, const uint8_t *source, size_t source_length);

/// The most bytes `czlib_compress` can need for `source_length` input bytes.
size_t czlib_compress_bound(size_t source_length);

/// Deflates `source` into one zlib stream in `dest` (at least czlib_compress_bound bytes);
/// `*dest_length` is its size on entry and the bytes written on return. Returns zlib's code.
int czlib_compress(uint8_t *dest, size_t *dest_length, const uint8_t *source, size_t source_length, int level);

/// A deflate stream kept between calls (`deflateReset` instead of a new stream per buffer: no
/// allocations per frame). One thread at a time.
typedef struct czlib_deflater czlib_deflater;

/// A stream at `level` (1 fastest ... 9 smallest); NULL and `*error` set to zlib's code on failure.
czlib_deflater *czlib_deflater_create(int level, int *error);

/// Deflates `source` into one whole zlib stream in `dest` (at least czlib_compress_bound bytes);
/// `*dest_length` is its size on entry and the bytes written on return. Returns zlib's code
/// (0 on success, -5 when `dest` was too small).
int czlib_deflater_compress(czlib_deflater *deflater, uint8_t *dest, size_t *dest_length,
                            const uint8_t *source, size_t source_length);

void czlib_deflater_destroy(czlib_deflater *deflater);
#endif
