import Render

extension ColorModeChoice {
    /// The renderer's mode for this setting; nil for `auto` (detect from the environment).
    var renderMode: ColorMode? { ColorMode(rawValue: rawValue) }
}
