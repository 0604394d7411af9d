/// Whether the link can carry pixels. The shared `LinkPacer` already holds frames back while
/// its cursor-position probes are unanswered (for half blocks and pixels alike); this only
/// decides when pixels cost too much for the link: three pictures in a row that would each take
/// over 100 ms at the link's measured delivery rate send the play screen back to half blocks.
/// (A blocking write's duration cannot tell: it measures the local pty, not an SSH link.)
/// UI thread only (value type).
struct PixelLinkMonitor {
    /// The longest a picture may take on the link before it counts as too slow.
    static let slowPicture = Duration.milliseconds(100)
    static let slowPicturesBeforeFallback = 3

    private(set) var slowPicturesInARow = 0

    /// A picture of `bytes` went out; `deliveryRate` is the pacer's bytes per second (nil
    /// until the link has been measured, which counts as fast enough).
    mutating func recordPicture(bytes: Int, deliveryRate: Double?) {
        guard let deliveryRate, deliveryRate > 0 else { return }
        let seconds = Double(bytes) / deliveryRate
        slowPicturesInARow = seconds > Self.slowPicture.inSeconds ? slowPicturesInARow + 1 : 0
    }

    /// The link cannot carry a compressed picture per 100 ms.
    var shouldFallBack: Bool { slowPicturesInARow >= Self.slowPicturesBeforeFallback }
}
