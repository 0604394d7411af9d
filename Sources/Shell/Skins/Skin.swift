import PhosphorKit

/// How a system's picture is arranged in the terminal: which part of the core's frame each screen
/// shows, where it goes, the border and colours around it, and the legend of mapped keys.
///
/// Skins are JSON files (`Skins/<system>.json`, documented in the README); a user's file in
/// `PhosphorPaths.skins` with the same name replaces the built-in one. `SkinLoader` reads them;
/// `layout(terminalColumns:rows:statusBarRows:)` turns a skin into cell rectangles. Plain values,
/// any thread.
public struct Skin: Sendable, Equatable, Encodable {
    /// Version of the skin file format.
    public static let formatVersion = 1

    public var format = Skin.formatVersion
    public var system: GameSystem
    /// Shown in menus.
    public var name: String
    /// The size of the core frame that `SkinScreen.source` rectangles refer to (e.g. 256×384 for
    /// the DS). Needed only when a screen has a source rectangle.
    public var frame: FrameSize?
    /// The smallest game area (terminal minus status bar) the skin can be drawn in.
    public var minimumSize: CellSize
    public var background: SkinColor
    public var border: SkinBorder
    /// Shown around the picture when the terminal has room for it.
    public var legend: SkinLegend?
    /// The ways the screens can be arranged; the first is the default. The DS skin has
    /// `stacked`, `side-by-side` and `single-screen`.
    public var layouts: [SkinArrangement]

    public init(system: GameSystem, name: String, frame: FrameSize? = nil, minimumSize: CellSize,
                background: SkinColor, border: SkinBorder, legend: SkinLegend?, layouts: [SkinArrangement]) {
        self.system = system
        self.name = name
        self.frame = frame
        self.minimumSize = minimumSize
        self.background = background
        self.border = border
        self.legend = legend
        self.layouts = layouts
    }

    /// The arrangement called `name`, or the default (first) one.
    public func arrangement(named name: String?) -> SkinArrangement {
        if let name, let match = layouts.first(where: { $0.name == name }) { return match }
        return layouts[0]
    }
}

/// A size in pixels.
public struct FrameSize: Sendable, Equatable, Hashable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

extension PixelRect {
    /// This rectangle of the core's frame moved to a frame of another size, proportionally (for a
    /// core that sends a different resolution than the skin was written for). Any thread.
    public func scaled(from skinFrame: FrameSize, to actualFrame: FrameSize) -> PixelRect {
        guard skinFrame.width > 0, skinFrame.height > 0 else { return self }
        let left = x * actualFrame.width / skinFrame.width
        let top = y * actualFrame.height / skinFrame.height
        let right = (x + width) * actualFrame.width / skinFrame.width
        let bottom = (y + height) * actualFrame.height / skinFrame.height
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// A size in terminal cells.
public struct CellSize: Sendable, Equatable, Hashable, Codable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// An sRGB colour written `#rrggbb` in skin files.
public struct SkinColor: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` (either case); nil for anything else.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"),
              digits.dropFirst().allSatisfy({ Character(UnicodeScalar($0)).isHexDigit }),
              let value = UInt32(String(decoding: digits[1...], as: UTF8.self), radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// 0xRRGGBB.
    public var rgb: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    /// `#rrggbb`, lower case.
    public var description: String {
        let digits = String(rgb, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let color = SkinColor(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not #rrggbb: \(text)"))
        }
        self = color
    }
}

/// The line drawn around each screen.
public enum BorderStyle: String, CaseIterable, Sendable, Codable {
    case none, single, double, rounded, heavy
}

public struct SkinBorder: Sendable, Equatable, Encodable {
    public var style: BorderStyle
    public var color: SkinColor
    /// The border may go (after the legend) so the picture fits at a whole scale (`"givesWay"`).
    public var givesWay = true

    public init(style: BorderStyle, color: SkinColor) {
        self.style = style
        self.color = color
    }

    private enum Key: String, CodingKey { case style, color, givesWay }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(style, forKey: .style)
        try container.encode(color, forKey: .color)
        if !givesWay { try container.encode(givesWay, forKey: .givesWay) }
    }
}

/// Where the legend of mapped keys goes, relative to the picture.
public enum LegendPosition: String, CaseIterable, Sendable, Codable {
    case left, right, bottom
}

/// The list of buttons and their keys drawn beside the picture. The keys come from the key map;
/// the skin only says which buttons, where, and how big the box is.
public struct SkinLegend: Sendable, Equatable, Encodable {
    public var position: LegendPosition
    /// Columns for a left/right legend, rows for a bottom legend.
    public var size: Int
    public var buttons: [JoypadButton]
    public var textColor: SkinColor
    public var keyColor: SkinColor
    /// The legend may go so the picture fits at a whole scale instead of a blurred ~0.9× (`"givesWay"`).
    public var givesWay = true

    public init(position: LegendPosition, size: Int, buttons: [JoypadButton], textColor: SkinColor, keyColor: SkinColor) {
        self.position = position
        self.size = size
        self.buttons = buttons
        self.textColor = textColor
        self.keyColor = keyColor
    }

    private enum Key: String, CodingKey { case position, size, buttons, textColor, keyColor, givesWay }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(position, forKey: .position)
        try container.encode(size, forKey: .size)
        try container.encode(buttons.map(\.name), forKey: .buttons)
        try container.encode(textColor, forKey: .textColor)
        try container.encode(keyColor, forKey: .keyColor)
        if !givesWay { try container.encode(givesWay, forKey: .givesWay) }
    }
}

/// How the screens of one arrangement share the picture area.
public enum ScreenDirection: String, CaseIterable, Sendable, Codable {
    /// One above the other, rows shared in proportion to the source heights.
    case vertical
    /// Side by side, columns shared in proportion to the source widths.
    case horizontal
    /// One screen at a time, filling the area (the DS single-screen mode, toggled top/bottom).
    case single
}

/// One named arrangement of the screens.
public struct SkinArrangement: Sendable, Equatable, Encodable {
    public var name: String
    public var direction: ScreenDirection
    /// Cells left empty between two screens.
    public var gap: Int
    public var screens: [SkinScreen]

    public init(name: String, direction: ScreenDirection, gap: Int = 0, screens: [SkinScreen]) {
        self.name = name
        self.direction = direction
        self.gap = gap
        self.screens = screens
    }
}

/// Where a picture sits inside its rectangle when the renderer's fitted picture is smaller.
public enum ScreenAlignment: String, CaseIterable, Sendable, Codable {
    case center, top, bottom, left, right
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    public enum Horizontal: Sendable { case left, center, right }
    public enum Vertical: Sendable { case top, center, bottom }

    public var horizontal: Horizontal {
        switch self {
        case .left, .topLeft, .bottomLeft: .left
        case .right, .topRight, .bottomRight: .right
        case .center, .top, .bottom: .center
        }
    }

    public var vertical: Vertical {
        switch self {
        case .top, .topLeft, .topRight: .top
        case .bottom, .bottomLeft, .bottomRight: .bottom
        case .center, .left, .right: .center
        }
    }
}

/// One screen: a part of the core's frame (the whole frame when `source` is nil).
public struct SkinScreen: Sendable, Equatable, Encodable {
    public var name: String
    public var source: PixelRect?
    public var alignment: ScreenAlignment

    public init(name: String, source: PixelRect? = nil, alignment: ScreenAlignment = .center) {
        self.name = name
        self.source = source
        self.alignment = alignment
    }
}
