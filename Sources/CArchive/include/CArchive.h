#ifndef CArchive_H
#define CArchive_H
// Shim for <archive.h>. Only this target includes the C header; Swift sees the wrappers below.
#include <archive.h>
#endif
