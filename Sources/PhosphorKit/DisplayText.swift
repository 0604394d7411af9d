/// Text Phosphor did not write (file names, ROM headers, core messages, pasted keys) made safe to
/// put on a terminal. The one place that decides which characters are unsafe: every screen, the
/// log's echo on stderr and the file-name sanitizer ask here. Any thread (pure functions).
public enum DisplayText {
    /// `text` with no control characters (C0, DEL, C1: so no escape sequences), no bidirectional
    /// overrides or isolates, no line separators. Each removed character becomes U+FFFD so nothing
    /// is silently hidden; tabs become a space.
    public static func sanitized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\t" {
                result.append(" ")
            } else if isUnsafe(scalar) {
                result.append("\u{FFFD}")
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `text` for a one-line input field (typed or pasted): the unsafe characters and tabs are
    /// dropped rather than shown as U+FFFD, since the user is editing the text itself.
    public static func strippingUnsafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\t" && !isUnsafe($0) }))
    }

    /// Control characters, bidi controls and line separators: what `sanitized` replaces.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true          // C0, DEL, C1 (CSI is 0x9B)
        case 0x061C, 0x200E, 0x200F: true            // bidi marks
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidi embeddings, overrides, isolates
        case 0x2028, 0x2029: true                    // line and paragraph separators
        case 0xFEFF: true                            // BOM / zero-width no-break space
        default: false
        }
    }
}
