#include "CPng.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_message(char *error, size_t error_size, const char *text) {
    if (error && error_size > 0) snprintf(error, error_size, "%s", text);
}

int cpng_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                     uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, (png_int_32)stride, NULL)) {
        copy_message(error, error_size, image.message);
        return -1;
    }
    uint8_t *buffer = malloc(size);
    if (!buffer) {
        copy_message(error, error_size, "out of memory");
        return -1;
    }
    if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, (png_int_32)stride, NULL)) {
        copy_message(error, error_size, image.message);
        free(buffer);
        return -1;
    }
    *out = buffer;
    *out_size = size;
    return 0;
}

int cpng_decode_rgba(const uint8_t *data, size_t size, uint8_t **pixels, uint32_t *width,
                     uint32_t *height, char *error, size_t error_size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        copy_message(error, error_size, image.message);
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    if (image.width > 16384 || image.height > 16384) {
        png_image_free(&image);
        copy_message(error, error_size, "image too large");
        return -1;
    }
    uint8_t *buffer = malloc(PNG_IMAGE_SIZE(image));
    if (!buffer) {
        png_image_free(&image);
        copy_message(error, error_size, "out of memory");
        return -1;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        copy_message(error, error_size, image.message);
        free(buffer);
        return -1;
    }
    *pixels = buffer;
    *width = image.width;
    *height = image.height;
    return 0;
}

void cpng_free(void *pointer) { free(pointer); }
