import PhosphorKit

/// How one picture is fitted into its cell rectangle.
public struct ScalingOptions: Hashable, Sendable {
    /// Display aspect ratio (width / height) of the source rectangle; `nil` means square
    /// pixels (source width / height). Libretro's `aspect_ratio` goes here when it is > 0.
    public var aspectRatio: Double?
    /// Use an exact integer scale (1:1, 2:2, …, centred) whenever the target can hold at least
    /// one copy of the picture; this ignores `aspectRatio` (pixels stay square).
    public var integerScaling: Bool
    /// Colour of the letterbox / pillarbox bars inside the target rectangle.
    public var barColor: RGBColor

    public init(aspectRatio: Double? = nil, integerScaling: Bool = false, barColor: RGBColor = .black) {
        self.aspectRatio = aspectRatio
        self.integerScaling = integerScaling
        self.barColor = barColor
    }
}

/// Where a picture lands inside a target, in canvas half-block pixels.
public struct PictureLayout: Hashable, Sendable {
    /// The picture's rectangle in canvas pixel coordinates (x in columns, y in half rows).
    public var picture: PixelRect
    /// The integer scale factor when the picture is an exact replication, else `nil` (area averaging).
    public var integerScale: Int?

    /// Fits a `source` of `sourceWidth`×`sourceHeight` pixels into `target` cells (1 wide × 2 tall
    /// pixels each), keeping the aspect ratio and centring; see `ScalingOptions`.
    public static func fit(sourceWidth: Int, sourceHeight: Int, into target: CellRect, options: ScalingOptions) -> PictureLayout {
        let area = target.pixelRect
        guard sourceWidth > 0, sourceHeight > 0, !area.isEmpty else {
            return PictureLayout(picture: PixelRect(x: area.x, y: area.y, width: 0, height: 0), integerScale: nil)
        }
        if options.integerScaling {
            let scale = min(area.width / sourceWidth, area.height / sourceHeight)
            if scale >= 1 {
                let width = sourceWidth * scale, height = sourceHeight * scale
                let rect = PixelRect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
                                     width: width, height: height)
                return PictureLayout(picture: rect, integerScale: scale)
            }
        }
        var aspect = Double(sourceWidth) / Double(sourceHeight)
        // Absurd ratios from a confused core are clamped rather than allowed to overflow.
        if let requested = options.aspectRatio, requested.isFinite, requested > 0 { aspect = min(100, max(0.01, requested)) }
        var width = area.width
        var height = Int((Double(width) / aspect).rounded())
        if height > area.height {
            height = area.height
            width = min(area.width, Int((Double(height) * aspect).rounded()))
        }
        width = max(1, width)
        height = max(1, height)
        let rect = PixelRect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
                             width: width, height: height)
        return PictureLayout(picture: rect, integerScale: nil)
    }
}
