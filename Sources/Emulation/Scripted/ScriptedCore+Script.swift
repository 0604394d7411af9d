import Foundation
import PhosphorKit

extension ScriptedCore {
    /// What a scripted core shows, plays and keeps. Any thread (value type).
    public struct Script: Sendable, Equatable {
        /// Names the "game": a state records it and another title's core refuses the state.
        public var title: String
        public var width: Int
        public var height: Int
        public var pixelFormat: PixelFormat
        public var framesPerSecond: Double
        /// Stereo sample frames per second.
        public var sampleRate: Int
        /// The square wave played on both channels (`toneFrequency` Hz, ±`toneAmplitude`).
        public var toneFrequency: Int
        public var toneAmplitude: Int16
        /// Where the battery save RAM is read from at load and written to on flush and unload;
        /// nil: no battery save.
        public var batterySave: URL?
        /// Bytes of battery save RAM (at least 10: a frame counter and the last buttons).
        public var batterySaveSize: Int
        /// What `coreVersion` reports.
        public var version: String
        /// Calls that fail on purpose, for error-path tests.
        public var failures: Set<Failure>
        /// Core options the scripted core defines at load, with the files they are saved in
        /// (as `CoreHost` keeps them: the core's file and this game's).
        public var options: [CoreOptionDefinition] = []
        public var optionFile: URL?
        public var gameOptionFile: URL?
        /// Time a frame and a serialize take (a slow core, for the speed checks): the stepping
        /// clock handed to `maker` moves on by it, or without one the core thread sleeps it.
        public var frameCost: Duration = .zero
        public var serializeCost: Duration = .zero

        public init(title: String = "scripted", width: Int = 64, height: Int = 48, pixelFormat: PixelFormat = .xrgb8888,
                    framesPerSecond: Double = 60, sampleRate: Int = 32_000, toneFrequency: Int = 500,
                    toneAmplitude: Int16 = 8_000, batterySave: URL? = nil, batterySaveSize: Int = 16,
                    version: String = "1.0 (scripted)", failures: Set<Failure> = []) {
            self.title = title
            self.width = width
            self.height = height
            self.pixelFormat = pixelFormat
            self.framesPerSecond = framesPerSecond
            self.sampleRate = sampleRate
            self.toneFrequency = toneFrequency
            self.toneAmplitude = toneAmplitude
            self.batterySave = batterySave
            self.batterySaveSize = max(batterySaveSize, 10)
            self.version = version
            self.failures = failures
        }
    }

    /// A call made to fail.
    public enum Failure: Sendable, Hashable {
        /// Loading throws `EmulationError.coreLoadFailed` (a core that cannot start).
        case load
        /// `serializeState` throws `EmulationError.stateUnsupported`.
        case serialize
        /// `unserializeState` throws `EmulationError.stateRejected`, leaving the game as it was.
        case unserialize
    }
}
