/// Encodes a picture as sixel (DCS `ESC P 0;1;0 q … ESC \`), scaled by a whole factor with
/// nearest neighbour and quantised to the terminal's colour registers (`SixelPalette`).
///
/// Why it is fast enough for 60 fps: it works at the picture's own resolution. A pixel repeated
/// `scale` times across becomes a longer run (`!n`), not more work; rows repeated down are
/// merged into one pass that sets several sixel bits at once. Each band of six output rows is
/// read once, column by column, into (colour, column, bits) entries, which are then grouped by
/// colour (a counting sort): a colour costs only the columns it is in, however many colours the
/// band has. The bytes of a band are written through a pointer into a scratch buffer reused for
/// the whole picture, then appended to the output at once. Any thread (stateless).
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
        let statistics = Statistics(colors: palette.colors.count, exactColors: palette.isExact)
        output += Array("\u{1B}P0;1;0q\"1;1;\(outputWidth);\(outputHeight)".utf8)
        for (register, color) in palette.colors.enumerated() {
            output += Array("#\(register);2;\(percent(color >> 16));\(percent(color >> 8 & 0xFF));\(percent(color & 0xFF))".utf8)
        }
        guard width > 0, outputHeight > 0 else {
            output += [0x1B, UInt8(ascii: "\\")]
            return statistics
        }
        palette.indices.withUnsafeBufferPointer { indices in
            let bands = BandEncoder(width: width, colorCount: palette.colors.count, scale: scale)
            defer { bands.deallocate() }
            var bandTop = 0
            while bandTop < outputHeight {
                let bytes = bands.encodeBand(top: bandTop, outputHeight: outputHeight, indices: indices.baseAddress!)
                output.append(contentsOf: bytes)
                bandTop += 6
            }
        }
        output += [0x1B, UInt8(ascii: "\\")]
        return statistics
    }

    /// A colour component 0...255 as sixel's percent 0...100.
    static func percent(_ component: UInt32) -> Int { (Int(component) * 100 + 127) / 255 }
}

/// The scratch memory of one `SixelEncoder.encode` call, allocated once per picture, and the
/// band loop that uses it. Owned by that call alone.
private struct BandEncoder {
    let width: Int
    let scale: Int
    /// Per colour: its entries in the band being encoded (0 for colours not in it), then, while
    /// grouping, where its next entry goes.
    let counts: UnsafeMutablePointer<Int32>
    /// The colours in the band, in the order first seen.
    let used: UnsafeMutablePointer<Int32>
    /// Entries in column order: a colour, the column, the sixel bits it has there.
    let entryColors: UnsafeMutablePointer<Int32>
    let entryColumns: UnsafeMutablePointer<Int32>
    let entryBits: UnsafeMutablePointer<UInt8>
    /// The same entries grouped by colour (each colour's still in column order).
    let groupedColumns: UnsafeMutablePointer<Int32>
    let groupedBits: UnsafeMutablePointer<UInt8>
    /// Where a band's bytes are written; big enough for the longest band there can be.
    let text: UnsafeMutablePointer<UInt8>

    init(width: Int, colorCount: Int, scale: Int) {
        self.width = width
        self.scale = scale
        let entries = 6 * width
        counts = .allocate(capacity: colorCount)
        counts.initialize(repeating: 0, count: colorCount)
        used = .allocate(capacity: min(colorCount, entries))
        entryColors = .allocate(capacity: entries)
        entryColumns = .allocate(capacity: entries)
        entryBits = .allocate(capacity: entries)
        groupedColumns = .allocate(capacity: entries)
        groupedBits = .allocate(capacity: entries)
        text = .allocate(capacity: Self.textCapacity(entries: entries, colors: min(colorCount, entries)))
    }

    func deallocate() {
        counts.deallocate()
        used.deallocate()
        entryColors.deallocate()
        entryColumns.deallocate()
        entryBits.deallocate()
        groupedColumns.deallocate()
        groupedBits.deallocate()
        text.deallocate()
    }

    /// The most bytes a band can take: per colour `#` and up to 5 digits and `$` or `-`; per
    /// entry at most two runs (the gap before it and itself), each `!`, up to 20 digits, a character.
    static func textCapacity(entries: Int, colors: Int) -> Int { colors * 7 + (2 * entries + colors) * 22 + 8 }

    /// Sixel text for output rows `top ..< top + 6`: each colour in the band, its runs, then `$`
    /// (back to the band's left edge) or, after the last colour, `-` (the next band).
    func encodeBand(top: Int, outputHeight: Int, indices: UnsafePointer<UInt16>) -> UnsafeBufferPointer<UInt8> {
        // The source rows this band shows, each with the sixel bits of the output rows it fills.
        var rowStarts: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
        var rowBits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
        var rowCount = 0
        let bottom = min(top + 6, outputHeight)
        withUnsafeMutableBytes(of: &rowStarts) { starts in
            withUnsafeMutableBytes(of: &rowBits) { bits in
                var row = top
                while row < bottom {
                    let sourceRow = row / scale
                    var mask: UInt8 = 0
                    while row < bottom, row / scale == sourceRow {
                        mask |= 1 << UInt8(row - top)
                        row += 1
                    }
                    starts.storeBytes(of: sourceRow * width, toByteOffset: rowCount * MemoryLayout<Int>.stride, as: Int.self)
                    bits[rowCount] = mask
                    rowCount += 1
                }
            }
        }
        let (entryCount, usedCount) = collectEntries(rowStarts: rowStarts, rowBits: rowBits, rowCount: rowCount, indices: indices)
        groupByColor(entryCount: entryCount, usedCount: usedCount)
        return writeText(usedCount: usedCount)
    }

    /// Reads the band column by column into entries; a colour repeated down a column is one
    /// entry with all its bits. Fills `used` and `counts`; returns how many entries and colours.
    private func collectEntries(rowStarts: (Int, Int, Int, Int, Int, Int), rowBits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8),
                                rowCount: Int, indices: UnsafePointer<UInt16>) -> (entries: Int, colors: Int) {
        var rowStarts = rowStarts
        var rowBits = rowBits
        var entryCount = 0
        var usedCount = 0
        withUnsafeBytes(of: &rowStarts) { startBytes in
            withUnsafeBytes(of: &rowBits) { bitBytes in
                let starts = startBytes.bindMemory(to: Int.self)
                let bits = bitBytes.bindMemory(to: UInt8.self)
                // The column's distinct colours and their bits (at most one per row).
                var columnColors: (Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0)
                var columnBits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &columnColors) { colorBytes in
                    withUnsafeMutableBytes(of: &columnBits) { maskBytes in
                        let colors = colorBytes.bindMemory(to: Int32.self)
                        let masks = maskBytes.bindMemory(to: UInt8.self)
                        for x in 0..<width {
                            var distinct = 0
                            for row in 0..<rowCount {
                                let color = Int32(indices[starts[row] &+ x])
                                var slot = 0
                                while slot < distinct, colors[slot] != color { slot += 1 }
                                if slot == distinct {
                                    colors[slot] = color
                                    masks[slot] = bits[row]
                                    distinct += 1
                                } else {
                                    masks[slot] |= bits[row]
                                }
                            }
                            for slot in 0..<distinct {
                                let color = colors[slot]
                                if counts[Int(color)] == 0 {
                                    used[usedCount] = color
                                    usedCount += 1
                                }
                                counts[Int(color)] += 1
                                entryColors[entryCount] = color
                                entryColumns[entryCount] = Int32(x)
                                entryBits[entryCount] = masks[slot]
                                entryCount += 1
                            }
                        }
                    }
                }
            }
        }
        return (entryCount, usedCount)
    }

    /// Counting sort of the entries by colour, in the order the colours were first seen; each
    /// colour's `counts` becomes the end of its group.
    private func groupByColor(entryCount: Int, usedCount: Int) {
        var start: Int32 = 0
        for position in 0..<usedCount {
            let color = Int(used[position])
            let count = counts[color]
            counts[color] = start
            start += count
        }
        for entry in 0..<entryCount {
            let color = Int(entryColors[entry])
            let slot = Int(counts[color])
            groupedColumns[slot] = entryColumns[entry]
            groupedBits[slot] = entryBits[entry]
            counts[color] = Int32(slot + 1)
        }
    }

    /// The band's text from the grouped entries; leaves `counts` all zero for the next band.
    private func writeText(usedCount: Int) -> UnsafeBufferPointer<UInt8> {
        var writer = SixelTextWriter(base: text)
        var groupStart = 0
        for position in 0..<usedCount {
            let color = Int(used[position])
            let groupEnd = Int(counts[color])
            counts[color] = 0
            writer.number(prefix: UInt8(ascii: "#"), color)
            // The run being gathered: `length` source columns of `bits` (0: nothing drawn).
            var bits: UInt8 = 0
            var length = 0
            var cursor = 0
            for entry in groupStart..<groupEnd {
                let column = Int(groupedColumns[entry])
                let entryBits = groupedBits[entry]
                if column > cursor {
                    if bits != 0 {
                        writer.run(bits, count: length * scale)
                        bits = 0
                        length = 0
                    }
                    length += column - cursor
                }
                if entryBits != bits {
                    writer.run(bits, count: length * scale)
                    bits = entryBits
                    length = 0
                }
                length += 1
                cursor = column + 1
            }
            writer.run(bits, count: length * scale)
            writer.byte(position == usedCount - 1 ? UInt8(ascii: "-") : UInt8(ascii: "$"))
            groupStart = groupEnd
        }
        return UnsafeBufferPointer(start: text, count: writer.count)
    }
}

/// Appends sixel text through a pointer into memory already big enough (`BandEncoder` sizes it).
private struct SixelTextWriter {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    /// `count` columns of sixel `bits`: `!count` when that is shorter than repeating it.
    @inline(__always)
    mutating func run(_ bits: UInt8, count columns: Int) {
        let character = 63 + bits
        if columns > 3 {
            number(prefix: UInt8(ascii: "!"), columns)
            byte(character)
        } else {
            for _ in 0..<columns { byte(character) }
        }
    }

    /// `prefix` then `value` in decimal (small values, the usual case, without a loop).
    @inline(__always)
    mutating func number(prefix: UInt8, _ value: Int) {
        byte(prefix)
        if value < 10 {
            byte(UInt8(truncatingIfNeeded: 48 &+ value))
        } else if value < 100 {
            byte(UInt8(truncatingIfNeeded: 48 &+ value / 10))
            byte(UInt8(truncatingIfNeeded: 48 &+ value % 10))
        } else if value < 1000 {
            byte(UInt8(truncatingIfNeeded: 48 &+ value / 100))
            byte(UInt8(truncatingIfNeeded: 48 &+ value / 10 % 10))
            byte(UInt8(truncatingIfNeeded: 48 &+ value % 10))
        } else {
            var digits = 0
            var rest = value
            repeat {
                digits += 1
                rest /= 10
            } while rest > 0
            rest = value
            var index = count + digits - 1
            while index >= count {
                base[index] = UInt8(truncatingIfNeeded: 48 &+ rest % 10)
                rest /= 10
                index -= 1
            }
            count += digits
        }
    }
}
