#ifndef CZSTD_H
#define CZSTD_H
// Zstandard for the rewind ring's deltas (XOR of two save states, mostly zeros).
#include <stddef.h>

typedef struct czstd_contexts czstd_contexts;

/// A compression and a decompression context, kept between calls (making them per call costs
/// more than compressing a small delta). NULL when out of memory.
czstd_contexts *czstd_contexts_create(void);
void czstd_contexts_free(czstd_contexts *contexts);

/// The most bytes `czstd_compress` can write for `source_length` input bytes.
size_t czstd_compress_bound(size_t source_length);

/// One-shot compression at `level` (negative levels are the fast ones). Returns the bytes
/// written, or an error code that `czstd_is_error` recognises.
size_t czstd_compress(czstd_contexts *contexts, void *dest, size_t dest_capacity, const void *source,
                      size_t source_length, int level);

/// One-shot decompression. Returns the bytes written or an error code.
size_t czstd_decompress(czstd_contexts *contexts, void *dest, size_t dest_capacity, const void *source,
                        size_t compressed_length);

/// 1 when `code` is one of Zstandard's error codes.
int czstd_is_error(size_t code);

/// Zstandard's own name for an error code.
const char *czstd_error_name(size_t code);
#endif
