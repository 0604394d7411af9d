#ifndef CLZ4_H
#define CLZ4_H
// LZ4 block compression for the rewind ring (XOR deltas of save states between frames).
#include <stddef.h>

/// The most bytes `clz4_compress` can write for `source_length` input bytes (0: too large).
int clz4_compress_bound(int source_length);

/// Compresses `source` into `dest` (`dest_capacity` bytes, at least clz4_compress_bound).
/// `acceleration` 1 is LZ4's default; higher is faster and compresses less. Returns the bytes
/// written, or 0 when it failed.
int clz4_compress(const char *source, char *dest, int source_length, int dest_capacity, int acceleration);

/// Decompresses a block made by `clz4_compress` into `dest`, which must hold exactly the
/// original size. Returns the bytes written, or a negative number for damaged input.
int clz4_decompress(const char *source, char *dest, int compressed_length, int dest_capacity);
#endif
