import Foundation

/// What the terminal's default background looks like, from its answer to OSC 11
/// (`ESC ] 11 ; ? ESC \`): menus that draw on the default background pick their text colours
/// by it. `unknown` when the terminal did not answer (GNU screen, the Linux console, old ones).
public enum TerminalBackground: Sendable, Equatable {
    case dark, light, unknown

    /// Classifies a colour (components 0...1) by WCAG relative luminance: light when black text
    /// on it has more contrast than white text (luminance above about 0.18).
    public init(red: Double, green: Double, blue: Double) {
        let luminance = Self.relativeLuminance(red: red, green: green, blue: blue)
        self = Self.contrast(luminance, 0) > Self.contrast(luminance, 1) ? .light : .dark
    }

    /// WCAG 2 relative luminance of an sRGB colour with components 0...1.
    public static func relativeLuminance(red: Double, green: Double, blue: Double) -> Double {
        func linear(_ value: Double) -> Double {
            value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2 contrast ratio of two luminances (1...21; 4.5 is the minimum for text).
    public static func contrast(_ first: Double, _ second: Double) -> Double {
        (max(first, second) + 0.05) / (min(first, second) + 0.05)
    }
}
