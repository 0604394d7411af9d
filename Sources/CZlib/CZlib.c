#include "CZlib.h"

#include <zlib.h>

int czlib_uncompress(uint8_t *dest, size_t *dest_length, const uint8_t *source, size_t source_length) {
    uLongf length = (uLongf)*dest_length;
    int result = uncompress(dest, &length, source, (uLong)source_length);
    *dest_length = (size_t)length;
    return result;
}

size_t czlib_compress_bound(size_t source_length) { return (size_t)compressBound((uLong)source_length); }

int czlib_compress(uint8_t *dest, size_t *dest_length, const uint8_t *source, size_t source_length, int level) {
    uLongf length = (uLongf)*dest_length;
    int result = compress2(dest, &length, source, (uLong)source_length, level);
    *dest_length = (size_t)length;
    return result;
}
