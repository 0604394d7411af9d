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
#endif
