/// Dynamic rate control: the maths that keeps the device buffer half full without drift.
///
/// The core produces samples by its own clock (the monotonic clock at the core's fps) and the sound
/// card plays them by another (its crystal). The two never agree exactly, so a fixed resampling
/// ratio either starves the device (underruns, clicks) or lets latency grow without bound.
///
/// Every tick the audio thread tops the device up to half full (`targetFill`) from the ring. The
/// ratio is steered by *all* the sound queued — device fill plus what waits in the ring, counted in
/// device frames — towards half the buffer plus a small ring reserve. A device slower than the core
/// lets the queue grow: the ratio drops (the ring empties a little faster); a faster device eats
/// into the reserve: the ratio rises. The nudge is at most ±`maximumDeviation` (0.5%, far below what
/// an ear hears as pitch), reached a quarter of the buffer away from the target. Steering by the
/// total rather than the device fill alone matters: the device is refilled every tick anyway, and
/// the ring, which receives whole video frames, is where a clock difference first shows.
///
/// A pure value: no clock, no ALSA. `AudioThreadLoop` feeds it measurements; tests feed it ten
/// simulated minutes of a device 0.3% fast or slow. Any thread.
public struct RateController: Sendable, Equatable {
    /// The device buffer, in frames.
    public let bufferFrames: Int
    /// Where each tick tops the device up to: half the buffer.
    public let targetFill: Int
    /// The largest relative change of the ratio, e.g. 0.005 for ±0.5%.
    public let maximumDeviation: Double

    public init(bufferFrames: Int, maximumDeviation: Double = 0.005) {
        precondition(bufferFrames >= 2, "a device buffer holds at least two frames")
        self.bufferFrames = bufferFrames
        targetFill = bufferFrames / 2
        self.maximumDeviation = maximumDeviation
    }

    /// The factor for the nominal ratio (device rate / core rate), in 1 ± maximumDeviation, when
    /// `queued` device frames are waiting in all and `target` should be: 1 on target,
    /// 1 + deviation a quarter buffer or more short of it, 1 - deviation a quarter buffer or more over.
    public func adjustment(queued: Double, target: Double) -> Double {
        let offset = (target - queued) / Double(max(1, bufferFrames / 4))
        return 1 + maximumDeviation * min(1, max(-1, offset))
    }

    /// What to do this tick: how much to write, at which ratio, and so how many ring frames to read.
    public struct Plan: Sendable, Equatable {
        /// Output (device) frames wanted.
        public var outputFrames: Int
        /// The ratio to resample with: nominal × adjustment.
        public var ratio: Double
        /// Input (core) frames to take from the ring for that output (rounded up, at most what it holds).
        public var inputFrames: Int
    }

    /// The plan for a device holding `deviceFill` frames while the ring holds `ringFrames` core
    /// frames and should keep about `ringReserve`; `nominalRatio` is device rate / core rate (already
    /// divided by the fast-forward speed).
    public func plan(deviceFill: Int, ringFrames: Int, ringReserve: Int, nominalRatio: Double) -> Plan {
        let queued = Double(deviceFill) + Double(max(0, ringFrames)) * nominalRatio
        let target = Double(targetFill) + Double(max(0, ringReserve)) * nominalRatio
        let ratio = nominalRatio * adjustment(queued: queued, target: target)
        let outputFrames = max(0, targetFill - deviceFill)
        let inputFrames = outputFrames == 0 ? 0 : min(Int((Double(outputFrames) / ratio).rounded(.up)), max(0, ringFrames))
        return Plan(outputFrames: outputFrames, ratio: ratio, inputFrames: inputFrames)
    }
}
