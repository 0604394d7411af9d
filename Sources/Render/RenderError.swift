/// Why Render refused its input. Messages are one line and name the problem.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// A frame's buffer is shorter than `height` rows of `pitch` bytes.
    case frameBufferTooSmall(width: Int, height: Int, pitch: Int, needed: Int, byteCount: Int)
    /// `pitch` is smaller than one row of pixels, or a dimension is negative.
    case invalidFrameGeometry(width: Int, height: Int, pitch: Int)
    /// An unknown `--color` value.
    case unknownColorMode(String)

    public var description: String {
        switch self {
        case let .frameBufferTooSmall(width, height, pitch, needed, byteCount):
            return "frame \(width)x\(height) with pitch \(pitch) needs \(needed) bytes, got \(byteCount)"
        case let .invalidFrameGeometry(width, height, pitch):
            return "invalid frame geometry \(width)x\(height) with pitch \(pitch)"
        case let .unknownColorMode(value):
            return "unknown colour mode '\(value)' (expected 24bit, 256 or 16)"
        }
    }
}
