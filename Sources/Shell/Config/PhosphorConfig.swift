import Library
import PhosphorKit

/// Everything the user can set in `config.json` (`PhosphorPaths.configFile`).
///
/// Every field has a default, and a file that leaves keys out (e.g. one written by an older
/// version) loads with those defaults. Reading and writing the file is `ConfigStore`'s job; this is
/// a plain value that any thread may copy.
public struct PhosphorConfig: Sendable, Equatable {
    /// Version of the file layout, written so a later Phosphor can migrate old files.
    public static let formatVersion = 1

    /// Folders the library scans for ROMs.
    public var libraryFolders: [String] = []
    /// The core to use per system: a full path to a `.so`, or a core file name such as
    /// `mgba_libretro.so` looked up in the usual core folders. Systems without an entry use the
    /// first installed core that supports them.
    public var corePreferences: [GameSystem: String] = [:]
    public var video = VideoSettings()
    public var audio = AudioSettings()
    public var fastForward = FastForwardSettings()
    public var hold = HoldTimingSettings()
    /// Rewind, run-ahead and slow motion (`PhosphorConfig+Timeline.swift`).
    public var timeline = TimelineSettings()
    /// How the two DS screens are arranged.
    public var dsLayout: DSScreenLayout = .stacked
    /// The save-state slot (1–9) last used per game, keyed by the game key (ROM base name).
    public var lastStateSlots: [String: Int] = [:]
    /// The picture the browser's preview pane shows for a game: its box art, title screen or
    /// snap, from the thumbnail folders (`"libraryArt": "boxart" | "title" | "snap"`).
    public var libraryArt: ThumbnailKind = .boxart
    /// `"retroArchFolders": "share"`: battery saves, clocks, states and BIOS files live in
    /// RetroArch's folders with its naming (`RetroArchFolders`), states in its container;
    /// `"own"`: Phosphor's folders. Nil until chosen (the browser asks once when RetroArch is there).
    public var retroArchFolders: RetroArchFoldersChoice?
    public var sharesRetroArchFolders: Bool { retroArchFolders == .share }

    public init() {}

    public static let defaults = PhosphorConfig()
}

/// How colours are sent to the terminal. `auto` follows `COLORTERM` (truecolor/24bit → 24-bit,
/// else 256 colours, and 16 when the terminal says it has no more). The other raw values are those
/// of `Render.ColorMode`, so `ColorMode(rawValue: choice.rawValue)` converts (nil for `auto`).
/// Whose folders keep saves, states and BIOS files (`"retroArchFolders"`).
public enum RetroArchFoldersChoice: String, CaseIterable, Sendable {
    case share, own
}

public enum ColorModeChoice: String, CaseIterable, Sendable, Codable {
    case auto
    case trueColor = "24bit"
    case palette256 = "256"
    case palette16 = "16"
}

public struct VideoSettings: Sendable, Equatable, Codable {
    public var colorMode: ColorModeChoice = .auto
    /// Half blocks or real pixels (kitty graphics, sixel) for the game picture.
    public var videoMode: VideoModeChoice = .auto
    /// Scale the picture only by whole multiples of the core's pixels (sharper, may leave borders).
    public var integerScale = false
    public var showStatusBar = true

    public init() {}
}

/// What the audio does while fast-forwarding: stay silent, or play the sped-up sound
/// (the setting behind `Audio.FastForwardAudio`: `.mute` → `.muted`, `.spedUp` → `.spedUp`).
public enum FastForwardAudioChoice: String, CaseIterable, Sendable, Codable {
    case mute
    case spedUp = "sped-up"
}

public struct AudioSettings: Sendable, Equatable, Codable {
    /// ALSA device string (`default`, `hw:1,0`, `null`, `file:FILE=...`).
    public var device = "default"
    /// Target ALSA buffer length.
    public var latencyMilliseconds = 64
    /// 0–100.
    public var volume = 100
    public var muted = false
    public var fastForwardAudio: FastForwardAudioChoice = .mute

    public static let latencyRange = 10...1000
    public static let volumeRange = 0...100

    public init() {}
}

/// A fast-forward rate. `unlimited` runs the core as fast as the machine allows.
public enum FastForwardSpeed: String, CaseIterable, Sendable, Codable, Comparable {
    case double = "2x"
    case triple = "3x"
    case quadruple = "4x"
    case octuple = "8x"
    case unlimited

    /// Core frames per displayed frame; nil for unlimited.
    public var multiplier: Int? {
        switch self {
        case .double: 2
        case .triple: 3
        case .quadruple: 4
        case .octuple: 8
        case .unlimited: nil
        }
    }

    public static func < (lhs: FastForwardSpeed, rhs: FastForwardSpeed) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

public struct FastForwardSettings: Sendable, Equatable {
    /// The speed the fast-forward key switches to.
    public var speed: FastForwardSpeed = .quadruple
    /// A per-system cap (a DS core may not manage more than 2x on this machine).
    public var maximumPerSystem: [GameSystem: FastForwardSpeed] = [:]

    public init() {}

    /// The speed to use for `system`: the chosen speed, capped by that system's maximum.
    public func effectiveSpeed(for system: GameSystem) -> FastForwardSpeed {
        guard let cap = maximumPerSystem[system] else { return speed }
        return min(speed, cap)
    }
}

/// Timing of the fallback hold model for terminals without key-release events: a key counts as
/// held until no autorepeat arrives within these windows. Stored as milliseconds; becomes
/// `Input.HoldTiming(initialDelay: .milliseconds(…), repeatGap: .milliseconds(…))`.
public struct HoldTimingSettings: Sendable, Equatable, Codable {
    /// How long to wait for the first autorepeat after a press until the real delay is measured
    /// (X11 uses 660 ms, others 250–600 ms).
    public var initialDelayMilliseconds = 1000
    /// The longest gap between two autorepeats before the key counts as released.
    public var repeatGapMilliseconds = 100

    public static let initialDelayRange = 50...3000
    public static let repeatGapRange = 10...1000

    public init() {}
}

// MARK: - Writing

extension PhosphorConfig: Encodable {
    private enum Key: String, CodingKey {
        case version, libraryFolders, cores, video, audio, fastForward, hold, dsLayout, lastStateSlots, libraryArt, retroArchFolders
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(libraryFolders, forKey: .libraryFolders)
        try container.encode(Dictionary(uniqueKeysWithValues: corePreferences.map { ($0.key.rawValue, $0.value) }),
                             forKey: .cores)
        try container.encode(video, forKey: .video)
        try container.encode(audio, forKey: .audio)
        try container.encode(fastForward, forKey: .fastForward)
        try container.encode(hold, forKey: .hold)
        try container.encode(dsLayout, forKey: .dsLayout)
        try container.encode(lastStateSlots, forKey: .lastStateSlots)
        try container.encode(libraryArt, forKey: .libraryArt)
        try container.encodeIfPresent(retroArchFolders?.rawValue, forKey: .retroArchFolders)
        var timelineContainer = encoder.container(keyedBy: TimelineKey.self)
        try encodeTimeline(into: &timelineContainer)
    }
}

extension FastForwardSettings: Encodable {
    private enum Key: String, CodingKey { case speed, maximumSpeed }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(speed, forKey: .speed)
        try container.encode(Dictionary(uniqueKeysWithValues: maximumPerSystem.map { ($0.key.rawValue, $0.value) }),
                             forKey: .maximumSpeed)
    }
}
