import Library
import PhosphorKit

extension PhosphorConfig {
    /// Builds a config from a parsed `config.json`. Missing keys keep their defaults; a wrong type
    /// or an out-of-range value throws (with its line); unknown keys come back as warnings.
    static func read(from root: PositionedJSON) throws(JSONFieldProblem) -> (config: PhosphorConfig, warnings: [JSONFieldProblem]) {
        var config = PhosphorConfig()
        var warnings: [JSONFieldProblem] = []
        var top = try JSONObjectReader(root, path: "")

        if let version = try top.integer("version", in: 0...Int(Int32.max)), version > formatVersion {
            warnings.append(JSONFieldProblem(
                line: root.line,
                message: "written by a newer Phosphor (format \(version), this one reads \(formatVersion)); unknown settings are ignored"))
        }
        if let folders = try top.stringList("libraryFolders") { config.libraryFolders = folders }

        if var cores = try top.object("cores") {
            for member in cores.members {
                guard let system = GameSystem(rawValue: member.key) else { continue }  // reported below
                guard let choice = try cores.string(member.key), !choice.trimmingWhitespace().isEmpty else {
                    throw JSONFieldProblem(line: member.line, message: "cores.\(member.key) must name a core file or path")
                }
                config.corePreferences[system] = choice
            }
            warnings += unknown(cores, what: "system")
        }

        if var video = try top.object("video") {
            if let mode = try video.choice("colorMode", as: ColorModeChoice.self) { config.video.colorMode = mode }
            if let mode = try video.choice("videoMode", as: VideoModeChoice.self) { config.video.videoMode = mode }
            if let integer = try video.bool("integerScale") { config.video.integerScale = integer }
            if let status = try video.bool("showStatusBar") { config.video.showStatusBar = status }
            warnings += unknown(video, what: "setting")
        }

        if var audio = try top.object("audio") {
            if let device = try audio.string("device") {
                guard !device.trimmingWhitespace().isEmpty else {
                    throw JSONFieldProblem(line: audio.line, message: "audio.device must not be empty")
                }
                config.audio.device = device
            }
            if let latency = try audio.integer("latencyMilliseconds", in: AudioSettings.latencyRange) {
                config.audio.latencyMilliseconds = latency
            }
            if let volume = try audio.integer("volume", in: AudioSettings.volumeRange) { config.audio.volume = volume }
            if let muted = try audio.bool("muted") { config.audio.muted = muted }
            if let mode = try audio.choice("fastForwardAudio", as: FastForwardAudioChoice.self) {
                config.audio.fastForwardAudio = mode
            }
            warnings += unknown(audio, what: "setting")
        }

        if var fastForward = try top.object("fastForward") {
            if let speed = try fastForward.choice("speed", as: FastForwardSpeed.self) { config.fastForward.speed = speed }
            if var maximum = try fastForward.object("maximumSpeed") {
                for member in maximum.members {
                    guard let system = GameSystem(rawValue: member.key) else { continue }
                    config.fastForward.maximumPerSystem[system] = try maximum.choice(member.key, as: FastForwardSpeed.self)
                }
                warnings += unknown(maximum, what: "system")
            }
            warnings += unknown(fastForward, what: "setting")
        }

        if var hold = try top.object("hold") {
            if let delay = try hold.integer("initialDelayMilliseconds", in: HoldTimingSettings.initialDelayRange) {
                config.hold.initialDelayMilliseconds = delay
            }
            if let gap = try hold.integer("repeatGapMilliseconds", in: HoldTimingSettings.repeatGapRange) {
                config.hold.repeatGapMilliseconds = gap
            }
            warnings += unknown(hold, what: "setting")
        }

        if let layout = try top.choice("dsLayout", as: DSScreenLayout.self) { config.dsLayout = layout }
        if let art = try top.choice("libraryArt", as: ThumbnailKind.self) { config.libraryArt = art }

        if var slots = try top.object("lastStateSlots") {
            for member in slots.members {
                config.lastStateSlots[member.key] = try slots.integer(member.key, in: StateSlot.numberedRange)
            }
        }

        if let folders = try top.choice("retroArchFolders", as: RetroArchFoldersChoice.self) { config.retroArchFolders = folders }
        try readTimeline(&top, into: &config, warnings: &warnings)

        warnings += unknown(top, what: "setting")
        return (config, warnings)
    }

    static func unknown(_ reader: JSONObjectReader, what: String) -> [JSONFieldProblem] {
        reader.unreadMembers().map { member in
            JSONFieldProblem(line: member.line,
                             message: "unknown \(what) \"\(reader.fieldPath(member.key))\" ignored (it is not kept when settings are saved)")
        }
    }
}
