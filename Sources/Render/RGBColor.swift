/// A 24-bit colour packed as 0x00RRGGBB, the layout XRGB8888 frames already use, so pixels
/// become colours without any reshuffling on the hot path.
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
    /// 0x00RRGGBB; the top byte is always zero.
    public var rawValue: UInt32

    @inlinable
    public init(rawValue: UInt32) {
        self.rawValue = rawValue & 0xFF_FFFF
    }

    @inlinable
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        rawValue = UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    @inlinable public var red: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 16) }
    @inlinable public var green: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
    @inlinable public var blue: UInt8 { UInt8(truncatingIfNeeded: rawValue) }

    public static let black = RGBColor(rawValue: 0)
    public static let white = RGBColor(rawValue: 0xFF_FFFF)

    public var description: String {
        let digits = String(rawValue, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
