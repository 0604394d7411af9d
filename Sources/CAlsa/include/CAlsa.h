#ifndef CAlsa_H
#define CAlsa_H
// Shim for <alsa/asoundlib.h>. Only this target includes the C header; Swift sees the wrappers below.
#include <alsa/asoundlib.h>
#endif
