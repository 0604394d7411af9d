/// Encodes a picture as sixel (DCS `ESC P 0;1;0 q … ESC \`), scaled by a whole factor with
/// nearest neighbour and quantised to the terminal's colour registers (`SixelPalette`).
///
/// Why it is fast enough for 60 fps: it works at the picture's own resolution. A pixel repeated
/// `scale` times across becomes a longer run (`!n`), not more work; rows repeated down are
/// merged into one pass that sets several sixel bits at once. Any thread (stateless).
public enum SixelEncoder {
    public struct Statistics: Sendable, Equatable {
        public var colors: Int
        public var exactColors: Bool
    }

    /// The DCS string for `image` drawn `scale` times its size, with at most `registers` colours.
    /// `P2 = 1`: pixels not drawn keep what is under them (nothing of ours is left undrawn).
    @discardableResult
    public static func encode(_ image: PixelImage, scale: Int, registers: Int, into output: inout [UInt8]) -> Statistics {
        let scale = max(1, scale)
        let palette = SixelPalette(image, registers: registers)
        let width = image.width
        let outputWidth = width * scale
        let outputHeight = image.height * scale
        output += Array("\u{1B}P0;1;0q\"1;1;\(outputWidth);\(outputHeight)".utf8)
        for (register, color) in palette.colors.enumerated() {
            output += Array("#\(register);2;\(percent(color >> 16));\(percent(color >> 8 & 0xFF));\(percent(color & 0xFF))".utf8)
        }
        guard width > 0, outputHeight > 0 else {
            output += [0x1B, UInt8(ascii: "\\")]
            return Statistics(colors: palette.colors.count, exactColors: palette.isExact)
        }
        let colorCount = palette.colors.count
        var masks = [UInt8](repeating: 0, count: colorCount * width)
        var lowest = [Int](repeating: Int.max, count: colorCount)
        var highest = [Int](repeating: -1, count: colorCount)
        var used: [Int] = []
        used.reserveCapacity(colorCount)
        masks.withUnsafeMutableBufferPointer { masks in
            palette.indices.withUnsafeBufferPointer { indices in
                var bandTop = 0
                while bandTop < outputHeight {
                    // The source rows this band of six output rows shows, each with its sixel bits.
                    var row = bandTop
                    while row < min(bandTop + 6, outputHeight) {
                        let sourceRow = row / scale
                        var bits: UInt8 = 0
                        while row < min(bandTop + 6, outputHeight), row / scale == sourceRow {
                            bits |= 1 << UInt8(row - bandTop)
                            row += 1
                        }
                        let rowStart = sourceRow * width
                        for x in 0..<width {
                            let color = Int(indices[rowStart + x])
                            if highest[color] < 0 { used.append(color) }
                            masks[color * width + x] |= bits
                            if x < lowest[color] { lowest[color] = x }
                            if x > highest[color] { highest[color] = x }
                        }
                    }
                    for (position, color) in used.enumerated() {
                        appendNumber(prefix: UInt8(ascii: "#"), color, to: &output)
                        if lowest[color] > 0 { appendRun(0, count: lowest[color] * scale, to: &output) }
                        var x = lowest[color]
                        let last = highest[color]
                        let base = color * width
                        while x <= last {
                            let mask = masks[base + x]
                            var end = x + 1
                            while end <= last, masks[base + end] == mask { end += 1 }
                            appendRun(mask, count: (end - x) * scale, to: &output)
                            x = end
                        }
                        for clear in lowest[color]...last { masks[base + clear] = 0 }
                        lowest[color] = Int.max
                        highest[color] = -1
                        output.append(position == used.count - 1 ? UInt8(ascii: "-") : UInt8(ascii: "$"))
                    }
                    used.removeAll(keepingCapacity: true)
                    bandTop += 6
                }
            }
        }
        output += [0x1B, UInt8(ascii: "\\")]
        return Statistics(colors: colorCount, exactColors: palette.isExact)
    }

    /// A colour component 0...255 as sixel's percent 0...100.
    static func percent(_ component: UInt32) -> Int { (Int(component) * 100 + 127) / 255 }

    /// `count` columns of the sixel `mask`: `!count` when that is shorter than repeating it.
    @inline(__always)
    static func appendRun(_ mask: UInt8, count: Int, to output: inout [UInt8]) {
        let character = 63 + mask
        if count > 3 {
            appendNumber(prefix: UInt8(ascii: "!"), count, to: &output)
            output.append(character)
        } else {
            for _ in 0..<count { output.append(character) }
        }
    }

    @inline(__always)
    static func appendNumber(prefix: UInt8, _ value: Int, to output: inout [UInt8]) {
        output.append(prefix)
        if value < 10 {
            output.append(UInt8(48 + value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0, count < 6 {
                buffer[count] = UInt8(48 + rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { output.append(buffer[index]) }
        }
    }
}
