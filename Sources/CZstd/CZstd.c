#include "CZstd.h"

#include <stdlib.h>
#include <zstd.h>

struct czstd_contexts {
    ZSTD_CCtx *compression;
    ZSTD_DCtx *decompression;
};

czstd_contexts *czstd_contexts_create(void) {
    czstd_contexts *contexts = calloc(1, sizeof(czstd_contexts));
    if (contexts == NULL) return NULL;
    contexts->compression = ZSTD_createCCtx();
    contexts->decompression = ZSTD_createDCtx();
    if (contexts->compression == NULL || contexts->decompression == NULL) {
        czstd_contexts_free(contexts);
        return NULL;
    }
    return contexts;
}

void czstd_contexts_free(czstd_contexts *contexts) {
    if (contexts == NULL) return;
    ZSTD_freeCCtx(contexts->compression);
    ZSTD_freeDCtx(contexts->decompression);
    free(contexts);
}

size_t czstd_compress_bound(size_t source_length) { return ZSTD_compressBound(source_length); }

size_t czstd_compress(czstd_contexts *contexts, void *dest, size_t dest_capacity, const void *source,
                      size_t source_length, int level) {
    return ZSTD_compressCCtx(contexts->compression, dest, dest_capacity, source, source_length, level);
}

size_t czstd_decompress(czstd_contexts *contexts, void *dest, size_t dest_capacity, const void *source,
                        size_t compressed_length) {
    return ZSTD_decompressDCtx(contexts->decompression, dest, dest_capacity, source, compressed_length);
}

int czstd_is_error(size_t code) { return ZSTD_isError(code) ? 1 : 0; }

const char *czstd_error_name(size_t code) { return ZSTD_getErrorName(code); }
