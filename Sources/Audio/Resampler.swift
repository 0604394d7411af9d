internal import CSampleRate

/// Which libsamplerate converter to use. `sincFastest` is band-limited (no aliasing "fizz" on the
/// square waves 8-bit consoles make) and still cheap; `linear` is the cheapest and aliases.
/// `Bench/audio` measures both.
public enum ResamplerQuality: String, Sendable, CaseIterable {
    case linear
    case sincFastest
    case sincMedium

    var converter: Int32 {
        switch self {
        case .linear: return Int32(SRC_LINEAR)
        case .sincFastest: return Int32(SRC_SINC_FASTEST)
        case .sincMedium: return Int32(SRC_SINC_MEDIUM_QUALITY)
        }
    }
}

/// Converts interleaved stereo Int16 audio from one sample rate to another with libsamplerate.
/// Used offline (`--audio-wav`: `process` then `flush`) and by the audio thread, which changes the
/// ratio on every call for dynamic rate control. Not thread-safe: one thread owns an instance.
public final class Resampler {
    public let quality: ResamplerQuality
    /// Output rate divided by input rate, as set by `init` or `setRates`.
    public private(set) var ratio: Double

    private let state: OpaquePointer
    private var floatInput: [Float] = []
    private var floatOutput: [Float] = []
    /// Output frames the input so far should yield (sum of input frames × ratio), so that
    /// `flush()` can make the total length exact: libsamplerate's own count is off by a few frames.
    private var expectedOutputFrames = 0.0
    private var producedOutputFrames = 0

    /// - Throws: `AudioError.invalidRate` for rates that are not positive and finite or whose ratio
    ///   libsamplerate cannot do (beyond 1:256); `AudioError.resampler` if src_new fails.
    public init(sourceRate: Double, targetRate: Double, quality: ResamplerQuality = .sincFastest) throws {
        self.quality = quality
        ratio = try Resampler.validatedRatio(source: sourceRate, target: targetRate)
        var error: Int32 = 0
        guard let state = src_new(quality.converter, 2, &error) else {
            throw AudioError.resampler(function: "src_new", reason: String(cString: src_strerror(error)))
        }
        self.state = state
    }

    deinit { src_delete(state) }

    static func validatedRatio(source: Double, target: Double) throws -> Double {
        guard source.isFinite, source > 0 else { throw AudioError.invalidRate(source) }
        guard target.isFinite, target > 0 else { throw AudioError.invalidRate(target) }
        let ratio = target / source
        guard src_is_valid_ratio(ratio) != 0 else { throw AudioError.invalidRate(source) }
        return ratio
    }

    /// Switches to new rates without a reset, so the sound continues without a click.
    public func setRates(source: Double, target: Double) throws {
        let newRatio = try Resampler.validatedRatio(source: source, target: target)
        // A step, not a glide: the samples that follow were made at the new rate.
        let result = src_set_ratio(state, newRatio)
        if result != 0 {
            throw AudioError.resampler(function: "src_set_ratio", reason: String(cString: src_strerror(result)))
        }
        ratio = newRatio
    }

    /// Resamples a block of interleaved stereo samples (an odd trailing sample is ignored).
    /// The filter keeps a few samples back; `flush()` returns them at the end of the stream.
    public func process(_ samples: [Int16]) throws -> [Int16] {
        var output: [Int16] = []
        try samples.withUnsafeBufferPointer { input in
            try convert(input, ratio: ratio, gain: 1, endOfInput: false, appendingTo: &output)
        }
        return output
    }

    /// Ends the stream: returns the samples still inside the filter, trimmed or padded with silence
    /// so that the whole stream is exactly round(input frames × ratio) frames long. Then resets.
    public func flush() throws -> [Int16] {
        var output: [Int16] = []
        try convert(UnsafeBufferPointer(start: nil, count: 0), ratio: ratio, gain: 1, endOfInput: true,
                    appendingTo: &output)
        let missing = Int(expectedOutputFrames.rounded()) - producedOutputFrames
        if missing > 0 {
            output.append(contentsOf: repeatElement(0, count: missing * 2))
        } else if missing < 0 {
            output.removeLast(min(output.count, -missing * 2))
        }
        try reset()
        return output
    }

    /// Forgets the filter's history (after a speed change or a state load: old sound must not leak).
    public func reset() throws {
        let result = src_reset(state)
        if result != 0 {
            throw AudioError.resampler(function: "src_reset", reason: String(cString: src_strerror(result)))
        }
        expectedOutputFrames = 0
        producedOutputFrames = 0
    }

    /// The audio thread's path: resamples `input` at `ratio` (libsamplerate glides from the previous
    /// ratio to this one across the block), multiplies by `gain` (0 = silence) and appends the
    /// Int16 result to `output`, clipping at full scale.
    func convert(_ input: UnsafeBufferPointer<Int16>, ratio: Double, gain: Float, endOfInput: Bool,
                 appendingTo output: inout [Int16]) throws {
        let inputFrames = input.count / 2
        if floatInput.count < inputFrames * 2 { floatInput = [Float](repeating: 0, count: inputFrames * 2) }
        if let base = input.baseAddress, inputFrames > 0 {
            floatInput.withUnsafeMutableBufferPointer { floats in
                src_short_to_float_array(base, floats.baseAddress!, Int32(inputFrames * 2))
            }
        }
        let outputCapacityFrames = Int(Double(inputFrames) * ratio) + 256
        if floatOutput.count < outputCapacityFrames * 2 {
            floatOutput = [Float](repeating: 0, count: outputCapacityFrames * 2)
        }
        expectedOutputFrames += Double(inputFrames) * ratio
        var usedFrames = 0
        while true {
            var data = SRC_DATA()
            var generated = 0
            let result: Int32 = floatInput.withUnsafeBufferPointer { floats in
                floatOutput.withUnsafeMutableBufferPointer { out in
                    data.data_in = floats.baseAddress.map { $0 + usedFrames * 2 }
                    data.input_frames = inputFrames - usedFrames
                    data.data_out = out.baseAddress
                    data.output_frames = outputCapacityFrames
                    data.end_of_input = endOfInput ? 1 : 0
                    data.src_ratio = ratio
                    let result = src_process(state, &data)
                    generated = data.output_frames_gen
                    return result
                }
            }
            if result != 0 {
                throw AudioError.resampler(function: "src_process", reason: String(cString: src_strerror(result)))
            }
            usedFrames += data.input_frames_used
            if generated > 0 { append(frames: generated, gain: gain, to: &output) }
            let inputLeft = usedFrames < inputFrames
            if !inputLeft && (!endOfInput || generated == 0) { break }
            if inputLeft && generated == 0 && data.input_frames_used == 0 { break }
        }
    }

    private func append(frames: Int, gain: Float, to output: inout [Int16]) {
        let count = frames * 2
        producedOutputFrames += frames
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: count))
        floatOutput.withUnsafeMutableBufferPointer { floats in
            if gain != 1 {
                for index in 0..<count { floats[index] *= gain }
            }
            output.withUnsafeMutableBufferPointer { destination in
                src_float_to_short_array(floats.baseAddress!, destination.baseAddress! + start, Int32(count))
            }
        }
    }
}
