#ifndef CZSTD_H
#define CZSTD_H
// Zstandard, measured against LZ4 for the rewind ring (make bench).
#include <stddef.h>

/// The most bytes `czstd_compress` can write for `source_length` input bytes.
size_t czstd_compress_bound(size_t source_length);

/// One-shot compression at `level` (negative levels are the fast ones). Returns the bytes
/// written, or an error code that `czstd_is_error` recognises.
size_t czstd_compress(void *dest, size_t dest_capacity, const void *source, size_t source_length, int level);

/// One-shot decompression. Returns the bytes written or an error code.
size_t czstd_decompress(void *dest, size_t dest_capacity, const void *source, size_t compressed_length);

/// 1 when `code` is one of Zstandard's error codes.
int czstd_is_error(size_t code);

/// Zstandard's own name for an error code.
const char *czstd_error_name(size_t code);
#endif
