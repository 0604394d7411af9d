#ifndef CEvdev_H
#define CEvdev_H
// Shim for <linux/input.h>. Only this target includes the C header; Swift sees the wrappers below.
#include <linux/input.h>
#endif
