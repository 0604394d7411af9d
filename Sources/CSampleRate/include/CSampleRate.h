#ifndef CSampleRate_H
#define CSampleRate_H
// Shim for <samplerate.h> (libsamplerate). Only this target includes the C header; Swift calls
// src_new, src_process, src_set_ratio, src_reset, src_delete and the array converters through it.
#include <samplerate.h>
#endif
