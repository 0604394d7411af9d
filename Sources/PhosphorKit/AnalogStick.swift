/// One of a pad's two analog sticks. Raw values are libretro's RETRO_DEVICE_INDEX_ANALOG_LEFT and
/// _RIGHT, the index a core passes when it reads RETRO_DEVICE_ANALOG.
public enum AnalogStick: Int, CaseIterable, Sendable, Codable {
    case left = 0, right = 1

    /// The name used in key maps ("left-stick", "right-stick" prefixes).
    public var name: String { self == .left ? "left-stick" : "right-stick" }
}

/// Where a stick points, in libretro's units: -0x8000...0x7fff on each axis, x to the right and
/// y downwards (a core reads "up" as negative y). Any thread (value type).
public struct StickPosition: Sendable, Hashable {
    public var x: Int16
    public var y: Int16

    public init(x: Int16, y: Int16) {
        self.x = x
        self.y = y
    }

    public static let centre = StickPosition(x: 0, y: 0)
    /// Full deflection in libretro's units.
    public static let full: Int = 0x7FFF
}
