internal import CZlib

/// RetroArch's save-state containers, so its states load here and ours can be written its way.
/// RetroArch 1.14 writes `RASTATE` + a version byte, then blocks (a 4-letter tag, a little-endian
/// u32 length, the data: `MEM ` holds the core's own `retro_serialize` bytes, `END ` closes), and
/// with `savestate_file_compression` wraps that in RZIP: `#RZIPv`, a version byte, `#`, a u32
/// chunk size, a u64 total size, then chunks of (u32 compressed length, one zlib stream).
/// Bytes that are neither are the core's own (Phosphor's files, RetroArch's older ones).
///
/// Any thread (pure functions over bytes).
public enum RetroArchState {
    static let rastateMagic = Array("RASTATE".utf8)
    static let rzipMagic = Array("#RZIPv".utf8)
    /// Refuse containers that claim more than this uncompressed (no core state is near it).
    static let maximumSize = 256 << 20

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// Whether `bytes` is a RetroArch container (compressed or not).
    public static func isContainer(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: rzipMagic) || bytes.starts(with: rastateMagic)
    }

    /// The core's bytes: unpacked from a RetroArch container, or `bytes` as they are.
    public static func coreBytes(from bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var content = bytes
        if content.starts(with: rzipMagic) { content = try inflateRZIP(content) }
        guard content.starts(with: rastateMagic) else { return content }
        return try memoryBlock(of: content)
    }

    /// The core's bytes in RetroArch's uncompressed container (what it writes without
    /// `savestate_file_compression`), blocks padded to 8 bytes as RetroArch lays them out.
    public static func container(for coreBytes: [UInt8]) -> [UInt8] {
        var out = rastateMagic + [1]
        appendBlock("MEM ", coreBytes, to: &out)
        appendBlock("END ", [], to: &out)
        return out
    }

    /// `container` compressed as RZIP in chunks of `chunkSize` bytes.
    public static func compressedContainer(for coreBytes: [UInt8], chunkSize: Int = 128 << 10) throws(Failure) -> [UInt8] {
        let plain = container(for: coreBytes)
        var out = rzipMagic + [1, UInt8(ascii: "#")]
        appendLittleEndian(UInt32(chunkSize), to: &out)
        appendLittleEndian(UInt64(plain.count), to: &out)
        var start = 0
        while start < plain.count {
            let chunk = Array(plain[start..<min(start + chunkSize, plain.count)])
            var compressed = [UInt8](repeating: 0, count: czlib_compress_bound(chunk.count))
            var length = compressed.count
            let result = czlib_compress(&compressed, &length, chunk, chunk.count, 6)
            guard result == 0 else { throw Failure(description: "zlib could not compress the state (compress2 returned \(result))") }
            appendLittleEndian(UInt32(length), to: &out)
            out += compressed.prefix(length)
            start += chunkSize
        }
        return out
    }

    // MARK: Reading

    private static func inflateRZIP(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        guard bytes.count >= 20, bytes[7] == UInt8(ascii: "#") else { throw damaged("its RZIP header is cut short") }
        let chunkSize = Int(readLittleEndian(UInt32.self, bytes, at: 8))
        let total = readLittleEndian(UInt64.self, bytes, at: 12)
        guard chunkSize > 0, total <= UInt64(maximumSize) else {
            throw damaged("its RZIP header claims \(total) bytes in chunks of \(chunkSize)")
        }
        var out: [UInt8] = []
        out.reserveCapacity(Int(total))
        var offset = 20
        while out.count < Int(total) {
            guard offset + 4 <= bytes.count else { throw damaged("it ends after \(out.count) of \(total) bytes") }
            let length = Int(readLittleEndian(UInt32.self, bytes, at: offset))
            offset += 4
            guard length > 0, offset + length <= bytes.count else { throw damaged("a compressed chunk runs past the end of the file") }
            var chunk = [UInt8](repeating: 0, count: min(chunkSize, Int(total) - out.count))
            var written = chunk.count
            let result = bytes.withUnsafeBufferPointer { source in
                czlib_uncompress(&chunk, &written, source.baseAddress! + offset, length)
            }
            guard result == 0 else { throw damaged("a compressed chunk does not inflate (zlib uncompress returned \(result))") }
            out += chunk.prefix(written)
            offset += length
        }
        return out
    }

    private static let knownTags = ["MEM ", "ACHV", "DUMY", "END ", "RPLY"].map { Array($0.utf8) }

    private static func memoryBlock(of bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var offset = 8  // "RASTATE" + version
        while offset + 8 <= bytes.count {
            let tag = Array(bytes[offset..<offset + 4])
            let length = Int(readLittleEndian(UInt32.self, bytes, at: offset + 4))
            let start = offset + 8
            guard start + length <= bytes.count else { throw damaged("its \(String(decoding: tag, as: UTF8.self)) block runs past the end of the file") }
            if tag == Array("MEM ".utf8) { return Array(bytes[start..<start + length]) }
            if tag == Array("END ".utf8) { break }
            // Blocks are padded to 8 bytes; take the padded position when a block starts there.
            let unpadded = start + length
            let padded = (unpadded + 7) & ~7
            offset = hasTag(bytes, at: padded) ? padded : unpadded
        }
        throw damaged("it holds no core state (no MEM block)")
    }

    private static func hasTag(_ bytes: [UInt8], at offset: Int) -> Bool {
        offset + 4 <= bytes.count && knownTags.contains { $0.elementsEqual(bytes[offset..<offset + 4]) }
    }

    private static func damaged(_ reason: String) -> Failure {
        Failure(description: "is a RetroArch save state, but \(reason)")
    }

    // MARK: Bytes

    private static func appendBlock(_ tag: String, _ data: [UInt8], to out: inout [UInt8]) {
        out += Array(tag.utf8)
        appendLittleEndian(UInt32(data.count), to: &out)
        out += data
        while out.count % 8 != 0 { out.append(0) }
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    private static func readLittleEndian<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + index]) << (8 * index) }
        return value
    }
}
