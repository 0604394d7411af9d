import PhosphorKit

/// A picture as packed 8-bit RGB (3 bytes a pixel, rows without padding): what the kitty
/// graphics protocol takes with `f=24`, and what the sixel encoder reads. Any thread (value type).
public struct PixelImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3, "\(rgb.count) bytes for \(width)x\(height) RGB")
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// `region` of `source` (clipped to the frame), decoded from the core's pixel format.
    public init(_ source: FrameSource, region: PixelRect) {
        let clipped = region.intersection(source.bounds)
        width = clipped.width
        height = clipped.height
        rgb = [UInt8](repeating: 0, count: width * height * 3)
        guard width > 0, height > 0 else { return }
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { row.deallocate() }
        let bytesPerPixel = source.format.bytesPerPixel
        let width = self.width
        rgb.withUnsafeMutableBufferPointer { output in
            for y in 0..<clipped.height {
                source.format.decodeRow(source.bytes, offset: (clipped.y + y) * source.pitch + clipped.x * bytesPerPixel,
                                        count: width, into: row)
                var index = y * width * 3
                for x in 0..<width {
                    let pixel = row[x]
                    output[index] = UInt8(truncatingIfNeeded: pixel >> 16)
                    output[index + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                    output[index + 2] = UInt8(truncatingIfNeeded: pixel)
                    index += 3
                }
            }
        }
    }

    /// A decoded PNG (box art, a state's screenshot), its alpha dropped.
    public init(_ png: PNGImage) {
        width = png.width
        height = png.height
        let count = png.width * png.height
        rgb = [UInt8](repeating: 0, count: count * 3)
        for index in 0..<count {
            rgb[index * 3] = png.rgba[index * 4]
            rgb[index * 3 + 1] = png.rgba[index * 4 + 1]
            rgb[index * 3 + 2] = png.rgba[index * 4 + 2]
        }
    }

    /// The colour at (x, y) as 0x00RRGGBB.
    public func color(x: Int, y: Int) -> UInt32 {
        let index = (y * width + x) * 3
        return UInt32(rgb[index]) << 16 | UInt32(rgb[index + 1]) << 8 | UInt32(rgb[index + 2])
    }

    /// Nearest-neighbour resampling to `width` x `height` (for pictures that must shrink).
    public func resampled(width newWidth: Int, height newHeight: Int) -> PixelImage {
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        for y in 0..<newHeight {
            let sourceY = y * height / newHeight
            for x in 0..<newWidth {
                let from = (sourceY * width + x * width / newWidth) * 3
                let to = (y * newWidth + x) * 3
                output[to] = rgb[from]
                output[to + 1] = rgb[from + 1]
                output[to + 2] = rgb[from + 2]
            }
        }
        return PixelImage(width: newWidth, height: newHeight, rgb: output)
    }
}
