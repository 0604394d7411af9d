#ifndef CSampleRate_H
#define CSampleRate_H
// Shim for <samplerate.h>. Only this target includes the C header; Swift sees the wrappers below.
#include <samplerate.h>
#endif
