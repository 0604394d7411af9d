/// Dynamic rate control: the maths that keeps the device buffer about half full.
///
/// The core produces samples by its own clock (the monotonic clock at the core's fps) and the sound
/// card plays them by another (its crystal). The two never agree exactly, so a fixed resampling
/// ratio either starves the device (underruns, clicks) or lets latency grow without bound.
/// Instead the audio thread nudges the ratio by at most ±`maximumDeviation` (0.5%, far below what
/// an ear hears as pitch) in proportion to how far the buffer is from half full, reaching the full
/// deviation an eighth of the buffer away from the target: emptier than half → slightly more output
/// per input sample; fuller → slightly less. A device 0.3% fast then settles about 8% of the buffer
/// below half, well clear of empty (see RateControllerTests' ten-minute simulations).
///
/// A pure value: no clock, no ALSA. `AudioOutput` feeds it the measured fill; tests feed it a
/// simulated device. Any thread.
public struct RateController: Sendable, Equatable {
    /// The device buffer, in frames.
    public let bufferFrames: Int
    /// Where the controller steers the fill: half the buffer.
    public let targetFill: Int
    /// The largest relative change of the ratio, e.g. 0.005 for ±0.5%.
    public let maximumDeviation: Double

    public init(bufferFrames: Int, maximumDeviation: Double = 0.005) {
        precondition(bufferFrames >= 2, "a device buffer holds at least two frames")
        self.bufferFrames = bufferFrames
        targetFill = bufferFrames / 2
        self.maximumDeviation = maximumDeviation
    }

    /// The factor to multiply the nominal ratio (device rate / core rate) by, in
    /// 1 - maximumDeviation ... 1 + maximumDeviation: 1 exactly at half full, 1 + deviation at
    /// 3/8 full or emptier, 1 - deviation at 5/8 or fuller.
    public func adjustment(forFill fill: Int) -> Double {
        let offset = Double(targetFill - fill) / Double(max(1, bufferFrames / 8))
        return 1 + maximumDeviation * min(1, max(-1, offset))
    }

    /// Output frames to write now to bring the buffer back up to its target; 0 at or above it.
    public func framesToWrite(forFill fill: Int) -> Int {
        max(0, targetFill - fill)
    }

    /// What to do this tick: how much to write, at which ratio, and so how many input frames to read.
    public struct Plan: Sendable, Equatable {
        /// Output (device) frames wanted.
        public var outputFrames: Int
        /// The ratio to resample with: nominal × `adjustment`.
        public var ratio: Double
        /// Input (core) frames to take from the ring for that output (rounded up).
        public var inputFrames: Int
    }

    /// The plan for a device holding `fill` frames when the nominal ratio (device rate / core rate,
    /// already divided by the fast-forward speed) is `nominalRatio` and the ring holds
    /// `availableInputFrames`.
    ///
    /// The ratio is adjusted for the fill *after* this write. Topping up to half full every tick
    /// means a device that drains between ticks looks half a tick's worth emptier than it is on
    /// average; steering by the fill before the write would bend the pitch for nothing. What really
    /// signals drift is the ring running short of what the device needs, and that shows in the
    /// fill after the write.
    public func plan(forFill fill: Int, nominalRatio: Double, availableInputFrames: Int = .max) -> Plan {
        let outputFrames = framesToWrite(forFill: fill)
        guard outputFrames > 0 else {
            return Plan(outputFrames: 0, ratio: nominalRatio * adjustment(forFill: fill), inputFrames: 0)
        }
        let suppliable = Double(max(0, availableInputFrames)) * nominalRatio
        let expectedFill = fill + Int(min(Double(outputFrames), suppliable))
        let ratio = nominalRatio * adjustment(forFill: expectedFill)
        let inputFrames = min(Int((Double(outputFrames) / ratio).rounded(.up)), max(0, availableInputFrames))
        return Plan(outputFrames: outputFrames, ratio: ratio, inputFrames: inputFrames)
    }
}
