import PhosphorKit

/// Builds kitty graphics protocol commands (APC `ESC _ G keys ; payload ESC \`): one image per
/// screen, re-sent with the same image and placement ids so each frame replaces the last in
/// place (no flicker, and the terminal's image store never grows), scaled by the terminal into
/// the placement's cells, replies suppressed (`q=2`). Any thread (stateless).
public enum KittyGraphicsEncoder {
    /// How the pixels reach the terminal.
    public enum Transport: Sendable, Equatable {
        /// In the escape code, base64 (`t=d`), zlib-compressed first (`o=z`) when `compressed`:
        /// works over any link (SSH).
        case direct(compressed: Bool)
        /// A file the caller has written the raw RGB bytes to (`t=t`); the terminal reads and
        /// deletes it. Only on the terminal's own machine: no base64, no compression.
        case temporaryFile(path: String)
    }

    /// Largest base64 payload in one chunk (the protocol's limit).
    public static let chunkSize = 4096

    /// Moves the cursor to the placement's top-left cell and sends `image` to be shown there,
    /// scaled into `cells`. `C=1` leaves the cursor where it was put. `deflater`: a stream the
    /// caller keeps from frame to frame for `o=z` (without one, a new stream per call).
    public static func place(_ image: PixelImage, imageID: Int, placementID: Int, cells: CellRect,
                             transport: Transport, deflater: ZlibDeflater? = nil, into output: inout [UInt8]) throws(Zlib.Failure) {
        output += Array("\u{1B}[\(cells.y + 1);\(cells.x + 1)H".utf8)
        var keys = "a=T,q=2,f=24,s=\(image.width),v=\(image.height),i=\(imageID),p=\(placementID),c=\(cells.columns),r=\(cells.rows),C=1"
        switch transport {
        case .temporaryFile(let path):
            keys += ",t=t"
            appendCommand(keys, payload: Array(path.utf8), into: &output)
        case .direct(let compressed):
            if compressed {
                keys += ",o=z"
                let stream: ZlibDeflater
                if let deflater { stream = deflater } else { stream = try ZlibDeflater(level: 1) }
                try stream.compress(image.rgb) { compressed in appendCommand(keys, payload: compressed, into: &output) }
            } else {
                appendCommand(keys, payload: image.rgb, into: &output)
            }
        }
    }

    /// Deletes an image and frees its data (`d=I`): the picture goes, the store stays small.
    public static func delete(imageID: Int) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(imageID),q=2\u{1B}\\".utf8)
    }

    /// `keys` and the base64 of `payload`, in chunks of at most `chunkSize` bytes: the first
    /// carries the keys, every one but the last `m=1`. Each chunk is encoded straight into
    /// `output` (a chunk of base64 is a whole number of 3-byte groups, so chunks encode apart).
    static func appendCommand(_ keys: String, payload: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        let groupBytes = chunkSize / 4 * 3
        let encodedLength = Base64.encodedLength(payload.count)
        output.reserveCapacity(output.count + encodedLength + encodedLength / chunkSize * 16 + keys.utf8.count + 16)
        var start = 0
        var first = true
        repeat {
            let end = min(start + groupBytes, payload.count)
            let more = end < payload.count
            output += [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]
            if first {
                output += Array(keys.utf8)
                if more { output += Array(",m=1".utf8) }
            } else {
                output += Array((more ? "m=1" : "m=0").utf8)
            }
            output.append(UInt8(ascii: ";"))
            Base64.append(UnsafeRawBufferPointer(rebasing: payload[start..<end]), to: &output)
            output += [0x1B, UInt8(ascii: "\\")]
            start = end
            first = false
        } while start < payload.count
    }

    static func appendCommand(_ keys: String, payload: [UInt8], into output: inout [UInt8]) {
        payload.withUnsafeBytes { appendCommand(keys, payload: $0, into: &output) }
    }
}
