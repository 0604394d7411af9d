#ifndef CLZMA_H
#define CLZMA_H
// liblzma for a 7z archive's own (encoded) header: one raw LZMA or LZMA2 block whose unpacked
// size the archive states. Only this target includes <lzma.h>.
#include <stddef.h>
#include <stdint.h>

/// Filters `clzma_raw_decode` knows.
enum { CLZMA_FILTER_LZMA1 = 1, CLZMA_FILTER_LZMA2 = 2 };

/// Decodes `source` (a raw stream of `filter` with the 7z coder's `properties`) into exactly
/// `dest_length` bytes. The dictionary is clamped to `dest_length` (never more is needed for
/// output that long), so a hostile dictionary size cannot size an allocation.
/// Returns 0 on success, else a liblzma return code (>0), or -1 when the input ended before
/// `dest_length` bytes came out. `*failed_function` names the liblzma call that failed.
int clzma_raw_decode(int filter, const uint8_t *properties, size_t properties_length,
                     const uint8_t *source, size_t source_length, uint8_t *dest, size_t dest_length,
                     const char **failed_function);

/// liblzma's meaning of a return code from `clzma_raw_decode`.
const char *clzma_message(int code);
#endif
