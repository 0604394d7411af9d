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
    /// At a scale that is not whole, snap each averaged pixel to the nearest of the frame's own
    /// colours when the frame has few (pixel art): edges stay hard, N colours stay about N.
    public var snapsToFrameColors: Bool

    public init(aspectRatio: Double? = nil, integerScaling: Bool = false, barColor: RGBColor = .black,
                snapsToFrameColors: Bool = true) {
        self.aspectRatio = aspectRatio
        self.integerScaling = integerScaling
        self.barColor = barColor
        self.snapsToFrameColors = snapsToFrameColors
    }

    /// An upscale this close below a whole scale (e.g. 1.05×) is drawn at that whole scale with bars:
    /// nearest-neighbour pixels instead of blended ones. Only for square-pixel pictures.
    static let wholeScaleSnap = 0.9
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
        // Just above a whole scale with square pixels: use the whole scale (sharp, and cheaper).
        let scale = Double(width) / Double(sourceWidth)
        let whole = scale.rounded(.down)
        let squarePixels = abs(aspect - Double(sourceWidth) / Double(sourceHeight)) < 0.01 * aspect
        if squarePixels, whole >= 1, whole / scale >= ScalingOptions.wholeScaleSnap {
            let scaleInt = Int(whole)
            let wholeWidth = sourceWidth * scaleInt, wholeHeight = sourceHeight * scaleInt
            if wholeWidth <= area.width, wholeHeight <= area.height {
                let rect = PixelRect(x: area.x + (area.width - wholeWidth) / 2, y: area.y + (area.height - wholeHeight) / 2,
                                     width: wholeWidth, height: wholeHeight)
                return PictureLayout(picture: rect, integerScale: scaleInt)
            }
        }
        let rect = PixelRect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
                             width: width, height: height)
        return PictureLayout(picture: rect, integerScale: nil)
    }
}
