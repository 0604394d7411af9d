#ifndef CArchive_H
#define CArchive_H
// Shim for <archive.h> and <archive_entry.h>. Only this target includes the C headers; Swift calls
// archive_* directly and uses the wrappers below for cast macros Swift cannot import.
#include <archive.h>
#include <archive_entry.h>

/// 1 when the entry is a regular file (AE_IFREG), else 0.
int carchive_entry_is_regular_file(struct archive_entry *entry);

/// 1 when the entry is a directory (AE_IFDIR), else 0.
int carchive_entry_is_directory(struct archive_entry *entry);

/// A reader for the formats Phosphor accepts (zip, 7z) with every decompression filter.
struct archive *carchive_read_new_for_roms(void);

#endif
