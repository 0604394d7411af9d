internal import CZlib

/// A zlib stream reused for buffer after buffer (each one whole stream, as `Zlib.compress`
/// makes), with its output buffer: the kitty encoder deflates a frame 60 times a second, and a
/// new stream and output array per frame is allocation and zeroing it does not need. One thread
/// at a time (the owner's).
public final class ZlibDeflater {
    private let stream: OpaquePointer
    /// The last `compress` result lives here until the next call.
    private var buffer: [UInt8] = []

    /// A stream at `level`, 1 (fastest) to 9 (smallest).
    public init(level: Int32 = 1) throws(Zlib.Failure) {
        var error: Int32 = 0
        guard let stream = czlib_deflater_create(level, &error) else { throw Zlib.Failure(function: "deflateInit", code: error) }
        self.stream = stream
    }

    deinit { czlib_deflater_destroy(stream) }

    /// `bytes` as one zlib stream, handed to `body` (valid only inside it).
    public func compress<Result>(_ bytes: UnsafeRawBufferPointer,
                                 _ body: (UnsafeRawBufferPointer) -> Result) throws(Zlib.Failure) -> Result {
        let bound = czlib_compress_bound(bytes.count)
        if buffer.count < bound { buffer = [UInt8](repeating: 0, count: bound) }
        var length = buffer.count
        let source = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let result = buffer.withUnsafeMutableBufferPointer { output in
            czlib_deflater_compress(stream, output.baseAddress, &length, source, bytes.count)
        }
        guard result == 0 else { throw Zlib.Failure(function: "deflate", code: result) }
        return buffer.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[0..<length])) }
    }

    public func compress<Result>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> Result) throws(Zlib.Failure) -> Result {
        var outcome: Swift.Result<Result, Zlib.Failure>?
        bytes.withUnsafeBytes { raw in
            do throws(Zlib.Failure) { outcome = .success(try compress(raw, body)) } catch { outcome = .failure(error) }
        }
        return try outcome!.get()
    }
}
