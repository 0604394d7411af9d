extension KeyDecoder {
    /// The event a finished control string carries: an OSC 11 or OSC 4 reply, a kitty graphics
    /// reply (APC `G`), or an XTVERSION reply (DCS `>|`).
    /// `index` is the string's ESC, `bodyEnd` where its terminator starts.
    static func stringEvent(_ bytes: [UInt8], at index: Int, bodyEnd: Int) -> InputEvent? {
        if bytes[index + 1] == UInt8(ascii: "_") { return graphicsReply(bytes[(index + 2)..<bodyEnd]) }
        if bytes[index + 1] == UInt8(ascii: "P") {
            let body = bytes[(index + 2)..<bodyEnd]
            guard body.starts(with: Array(">|".utf8)) else { return nil }
            return .terminalVersion(String(decoding: body.dropFirst(2), as: UTF8.self))
        }
        guard bytes[index + 1] == UInt8(ascii: "]") else { return nil }
        let body = String(decoding: bytes[(index + 2)..<bodyEnd], as: UTF8.self)
        if body.hasPrefix("4;") { return paletteColor(body.dropFirst(2)) }
        guard body.hasPrefix("11;") else { return nil }
        return backgroundColor(body.dropFirst(3))
    }

    /// `n;rgb:R/G/B` (an OSC 4 reply without its `4;`); nil for anything else.
    static func paletteColor(_ body: Substring) -> InputEvent? {
        guard let separator = body.firstIndex(of: ";"), let index = Int(body[..<separator]), (0...255).contains(index),
              case .backgroundColor(let red, let green, let blue)? = backgroundColor(body[body.index(after: separator)...]) else {
            return nil
        }
        func scaled(_ value: Double) -> UInt16 { UInt16((value * 65535).rounded()) }
        return .paletteColor(index: index, red: scaled(red), green: scaled(green), blue: scaled(blue))
    }

    /// `rgb:R/G/B` with 1 to 4 hex digits per component (xterm answers with 4, some with 2),
    /// or `rgba:R/G/B/A` (the alpha ignored). Nil for anything else (a `?` echoed back).
    static func backgroundColor(_ spec: Substring) -> InputEvent? {
        let parts: [Substring]
        if spec.hasPrefix("rgb:") {
            parts = spec.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
        } else if spec.hasPrefix("rgba:") {
            parts = Array(spec.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false).prefix(3))
            guard parts.count == 3 else { return nil }
        } else {
            return nil
        }
        var components: [Double] = []
        for part in parts {
            guard (1...4).contains(part.count), let value = UInt32(part, radix: 16) else { return nil }
            components.append(Double(value) / Double((1 << (4 * part.count)) - 1))
        }
        return .backgroundColor(red: components[0], green: components[1], blue: components[2])
    }
}
