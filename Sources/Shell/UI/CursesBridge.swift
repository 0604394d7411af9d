import CCurses

// Free functions so files that only need these two calls don't import the C shim themselves.
func ccursesCursor(_ row: inout Int32, _ column: inout Int32) { ccurses_cursor(&row, &column) }
func ccursesAttributesReset() { ccurses_attributes_reset() }
