internal import CZlib

/// One-shot zlib streams (RFC 1950) through Debian's zlib: the kitty graphics protocol's `o=z`
/// payloads, and whoever else needs a whole buffer deflated or inflated. Any thread.
public enum Zlib {
    public struct Failure: Error, CustomStringConvertible {
        public var function: String
        public var code: Int32
        public var description: String { "zlib \(function) returned \(code)" }
    }

    /// `bytes` as one zlib stream; `level` 1 (fastest) to 9 (smallest).
    public static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32 = 1) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: czlib_compress_bound(bytes.count))
        var length = output.count
        let source = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let result = czlib_compress(&output, &length, source, bytes.count, level)
        guard result == 0 else { throw Failure(function: "compress2", code: result) }
        output.removeLast(output.count - length)
        return output
    }

    public static func compress(_ bytes: [UInt8], level: Int32 = 1) throws(Failure) -> [UInt8] {
        var result: Result<[UInt8], Failure> = .success([])
        bytes.withUnsafeBytes { raw in
            do throws(Failure) { result = .success(try compress(raw, level: level)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Inflates one zlib stream whose plain size is at most `maximumLength` bytes.
    public static func uncompress(_ bytes: [UInt8], maximumLength: Int) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: maximumLength)
        var length = output.count
        let result = czlib_uncompress(&output, &length, bytes, bytes.count)
        guard result == 0 else { throw Failure(function: "uncompress", code: result) }
        output.removeLast(output.count - length)
        return output
    }
}
