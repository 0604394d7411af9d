#include "CZstd.h"

#include <zstd.h>

size_t czstd_compress_bound(size_t source_length) { return ZSTD_compressBound(source_length); }

size_t czstd_compress(void *dest, size_t dest_capacity, const void *source, size_t source_length, int level) {
    return ZSTD_compress(dest, dest_capacity, source, source_length, level);
}

size_t czstd_decompress(void *dest, size_t dest_capacity, const void *source, size_t compressed_length) {
    return ZSTD_decompress(dest, dest_capacity, source, compressed_length);
}

int czstd_is_error(size_t code) { return ZSTD_isError(code) ? 1 : 0; }

const char *czstd_error_name(size_t code) { return ZSTD_getErrorName(code); }
