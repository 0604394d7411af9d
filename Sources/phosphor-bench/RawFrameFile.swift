import Foundation

/// The benchmark's frame file: `frame-NNNN.xrgb` = width and height as UInt32 little-endian,
/// then width×height XRGB8888 pixels (UInt32 little-endian, 0x00RRGGBB), rows packed.
/// `Bench/render/chafa_bench.c` reads the same files.
struct RawFrameFile {
    var width: Int
    var height: Int
    /// The XRGB8888 pixel bytes (without the header).
    var pixels: [UInt8]

    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static let headerSize = 8

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        guard data.count >= RawFrameFile.headerSize else {
            throw FormatError(description: "\(url.path): shorter than the 8-byte header")
        }
        let bytes = [UInt8](data)
        func word(_ offset: Int) -> Int {
            Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
        }
        width = word(0)
        height = word(4)
        let expected = RawFrameFile.headerSize + width * height * 4
        guard width > 0, height > 0, width <= 4096, height <= 4096, bytes.count == expected else {
            throw FormatError(description: "\(url.path): header says \(width)x\(height) (\(expected) bytes) but the file has \(bytes.count) bytes")
        }
        pixels = Array(bytes[RawFrameFile.headerSize...])
    }

    func write(to url: URL) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(RawFrameFile.headerSize + pixels.count)
        for value in [UInt32(width), UInt32(height)] {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: pixels)
        try Data(bytes).write(to: url, options: .atomic)
    }

    /// Every `frame-*.xrgb` in `directory`, in name order.
    static func loadDirectory(_ directory: URL) throws -> [RawFrameFile] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("frame-") && $0.hasSuffix(".xrgb") }
            .sorted()
        guard !names.isEmpty else { throw FormatError(description: "\(directory.path): no frame-*.xrgb files") }
        return try names.map { try RawFrameFile(contentsOf: directory.appendingPathComponent($0)) }
    }
}
