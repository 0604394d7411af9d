/// The replies to the pixel-graphics queries: kitty graphics (APC `G`), XTSMGRAPHICS and the
/// cell size in pixels.
extension KeyDecoder {
    /// The body of `ESC _ G keys ; message ESC \` (after the `ESC _`): the image id and message.
    /// Nil for other APC strings or a reply without an id.
    static func graphicsReply(_ body: ArraySlice<UInt8>) -> InputEvent? {
        guard body.first == UInt8(ascii: "G") else { return nil }
        let text = String(decoding: body.dropFirst(), as: UTF8.self)
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        var imageID: Int?
        for pair in parts[0].split(separator: ",") {
            let keyValue = pair.split(separator: "=", maxSplits: 1)
            if keyValue.count == 2, keyValue[0] == "i" { imageID = Int(keyValue[1]) }
        }
        guard let imageID else { return nil }
        return .graphicsReply(imageID: imageID, message: parts.count > 1 ? String(parts[1]) : "")
    }

    /// `CSI ? item ; status ; value… S`.
    static func graphicsAttribute(_ values: [[Int?]]) -> InputEvent? {
        let numbers = values.map { $0.first ?? nil }
        guard numbers.count >= 2, let item = numbers[0], let status = numbers[1] else { return nil }
        return .graphicsAttribute(item: item, status: status, values: numbers.dropFirst(2).map { $0 ?? 0 })
    }

    /// `CSI 6 ; height ; width t`.
    static func cellPixelSize(_ values: [[Int?]]) -> InputEvent? {
        let numbers = values.map { $0.first ?? nil }
        guard numbers.count == 3, let height = numbers[1], let width = numbers[2], width > 0, height > 0 else { return nil }
        return .cellPixelSize(width: width, height: height)
    }
}
