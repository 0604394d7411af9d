/// A rectangle of pixels in a frame (or of half-block pixels on a canvas), origin top left.
/// The one pixel rectangle of the app: a skin's part of a frame, Render's source and target
/// areas. Codable because skins are stored as JSON. Any thread (value type).
public struct PixelRect: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    /// The part of this rectangle inside `other` (empty, with zero size, when they do not meet).
    public func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return PixelRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}
