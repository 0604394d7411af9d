#include "CLz4.h"

#include <lz4.h>

int clz4_compress_bound(int source_length) { return LZ4_compressBound(source_length); }

int clz4_compress(const char *source, char *dest, int source_length, int dest_capacity, int acceleration) {
    return LZ4_compress_fast(source, dest, source_length, dest_capacity, acceleration);
}

int clz4_decompress(const char *source, char *dest, int compressed_length, int dest_capacity) {
    return LZ4_decompress_safe(source, dest, compressed_length, dest_capacity);
}
