#include "CZlib.h"

#include <stdlib.h>
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

struct czlib_deflater {
    z_stream stream;
};

czlib_deflater *czlib_deflater_create(int level, int *error) {
    czlib_deflater *deflater = calloc(1, sizeof *deflater);
    if (deflater == NULL) {
        *error = Z_MEM_ERROR;
        return NULL;
    }
    int result = deflateInit(&deflater->stream, level);
    if (result != Z_OK) {
        free(deflater);
        *error = result;
        return NULL;
    }
    *error = Z_OK;
    return deflater;
}

int czlib_deflater_compress(czlib_deflater *deflater, uint8_t *dest, size_t *dest_length,
                            const uint8_t *source, size_t source_length) {
    z_stream *stream = &deflater->stream;
    int result = deflateReset(stream);
    if (result != Z_OK) return result;
    stream->next_in = (Bytef *)source;
    stream->avail_in = (uInt)source_length;
    stream->next_out = dest;
    stream->avail_out = (uInt)*dest_length;
    result = deflate(stream, Z_FINISH);
    *dest_length = (size_t)stream->total_out;
    if (result == Z_STREAM_END) return Z_OK;
    return result == Z_OK ? Z_BUF_ERROR : result;
}

void czlib_deflater_destroy(czlib_deflater *deflater) {
    if (deflater == NULL) return;
    deflateEnd(&deflater->stream);
    free(deflater);
}
