#include "CLzma.h"
#include <lzma.h>
#include <stdlib.h>

int clzma_raw_decode(int filter, const uint8_t *properties, size_t properties_length,
                     const uint8_t *source, size_t source_length, uint8_t *dest, size_t dest_length,
                     const char **failed_function) {
    lzma_filter filters[2] = {
        { .id = filter == CLZMA_FILTER_LZMA2 ? LZMA_FILTER_LZMA2 : LZMA_FILTER_LZMA1, .options = NULL },
        { .id = LZMA_VLI_UNKNOWN, .options = NULL },
    };
    lzma_ret ret = lzma_properties_decode(&filters[0], NULL, properties, properties_length);
    if (ret != LZMA_OK) {
        *failed_function = "lzma_properties_decode";
        return (int)ret;
    }
    lzma_options_lzma *options = filters[0].options;
    // A dictionary larger than the output is never referenced; 4 KiB is liblzma's floor.
    uint64_t wanted = dest_length < 4096 ? 4096 : dest_length;
    if (options->dict_size > wanted) options->dict_size = (uint32_t)wanted;

    lzma_stream stream = LZMA_STREAM_INIT;
    ret = lzma_raw_decoder(&stream, filters);
    free(filters[0].options);
    if (ret != LZMA_OK) {
        *failed_function = "lzma_raw_decoder";
        return (int)ret;
    }
    stream.next_in = source;
    stream.avail_in = source_length;
    stream.next_out = dest;
    stream.avail_out = dest_length;
    int result = 0;
    // Every call either makes progress or ends: LZMA_FINISH turns "no more input" into
    // LZMA_BUF_ERROR instead of a loop.
    while (stream.avail_out > 0) {
        ret = lzma_code(&stream, LZMA_FINISH);
        if (ret == LZMA_OK) continue;
        if (ret == LZMA_STREAM_END || ret == LZMA_BUF_ERROR) {
            result = stream.avail_out > 0 ? -1 : 0;
        } else {
            *failed_function = "lzma_code";
            result = (int)ret;
        }
        break;
    }
    if (result == -1) *failed_function = "lzma_code";
    lzma_end(&stream);
    return result;
}

const char *clzma_message(int code) {
    switch (code) {
    case -1: return "the packed header ended before its stated size";
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_MEMLIMIT_ERROR: return "memory limit reached";
    case LZMA_FORMAT_ERROR: return "not an LZMA stream";
    case LZMA_OPTIONS_ERROR: return "unsupported coder properties";
    case LZMA_DATA_ERROR: return "corrupt compressed data";
    case LZMA_BUF_ERROR: return "the compressed data ended early";
    case LZMA_PROG_ERROR: return "invalid arguments";
    default: return "unknown liblzma error";
    }
}
