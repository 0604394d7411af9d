#include "CAlsa.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static calsa_error_sink current_sink = NULL;
static __thread char last_error[512];

static void calsa_error_handler(const char *file, int line, const char *function, int code,
                                const char *format, ...) {
    char message[512];
    message[0] = '\0';
    if (format) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(message, sizeof message, format, arguments);
        va_end(arguments);
    }
    if (code != 0) {
        size_t used = strlen(message);
        snprintf(message + used, sizeof message - used, ": %s", snd_strerror(code));
    }
    snprintf(last_error, sizeof last_error, "%s", message);
    if (current_sink) {
        current_sink(file ? file : "", line, function ? function : "", code, message);
    }
}

int calsa_install_error_handler(calsa_error_sink sink) {
    current_sink = sink;
    return snd_lib_error_set_handler(calsa_error_handler);
}

const char *calsa_last_error(void) {
    return last_error;
}

void calsa_clear_last_error(void) {
    last_error[0] = '\0';
}
