#ifndef CAlsa_H
#define CAlsa_H
// Shim for <alsa/asoundlib.h>. Only this target includes the C header. Swift calls the plain
// snd_* functions through this module, plus the helpers below for what Swift cannot do itself:
// libasound's error handler is a C variadic function, so it lives here and forwards whole lines.
#include <alsa/asoundlib.h>

/// Receives every line libasound would have printed to stderr, already formatted.
/// `code` is the error code libasound passed (0 when none); the line already includes its text.
typedef void (*calsa_error_sink)(const char *file, int line, const char *function, int code,
                                 const char *message);

/// Installs the handler with snd_lib_error_set_handler. Call before the first other ALSA call
/// so libasound never writes onto the terminal. Any thread; the sink may be called from any thread.
/// Returns snd_lib_error_set_handler's result (0 on success).
int calsa_install_error_handler(calsa_error_sink sink);

/// The last line libasound reported on the calling thread since calsa_clear_last_error, or "".
/// Used to turn "No such file or directory" into the useful "Unknown PCM default".
const char *calsa_last_error(void);

/// Forgets the calling thread's last line.
void calsa_clear_last_error(void);

#endif
