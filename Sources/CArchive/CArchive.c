#include "CArchive.h"

int carchive_entry_is_regular_file(struct archive_entry *entry) {
    return archive_entry_filetype(entry) == AE_IFREG ? 1 : 0;
}

int carchive_entry_is_directory(struct archive_entry *entry) {
    return archive_entry_filetype(entry) == AE_IFDIR ? 1 : 0;
}

struct archive *carchive_read_new_for_roms(void) {
    struct archive *reader = archive_read_new();
    if (reader == NULL) return NULL;
    archive_read_support_filter_all(reader);
    archive_read_support_format_zip(reader);
    archive_read_support_format_7zip(reader);
    return reader;
}
