import PhosphorKit

/// `config.json`'s rewind, run-ahead and slow-motion keys:
///
///     "rewind": { "enabled": true, "granularity": 1, "bufferMegabytes": 64 },
///     "runAhead": { "systems": { "nes": "1" }, "games": { "<game key>": "preemptive-2" } },
///     "slowMotion": "1/2"
extension PhosphorConfig {
    static func readTimeline(_ top: inout JSONObjectReader, into config: inout PhosphorConfig,
                             warnings: inout [JSONFieldProblem]) throws(JSONFieldProblem) {
        if var rewind = try top.object("rewind") {
            if let enabled = try rewind.bool("enabled") { config.timeline.rewind = enabled }
            if let granularity = try rewind.integer("granularity", in: 1...60) { config.timeline.rewindGranularity = granularity }
            if let megabytes = try rewind.integer("bufferMegabytes", in: TimelineSettings.bufferMegabyteRange) {
                config.timeline.rewindBufferMegabytes = megabytes
            }
            warnings += unknown(rewind, what: "setting")
        }
        if var runAhead = try top.object("runAhead") {
            if var systems = try runAhead.object("systems") {
                for member in systems.members {
                    guard let system = GameSystem(rawValue: member.key) else { continue }  // reported below
                    config.timeline.runAheadPerSystem[system] = try systems.choice(member.key, as: RunAheadChoice.self)
                }
                warnings += unknown(systems, what: "system")
            }
            if var games = try runAhead.object("games") {
                for member in games.members {
                    config.timeline.runAheadPerGame[member.key] = try games.choice(member.key, as: RunAheadChoice.self)
                }
            }
            warnings += unknown(runAhead, what: "setting")
        }
        if let speed = try top.choice("slowMotion", as: SlowMotionSpeed.self) { config.timeline.slowMotion = speed }
    }

    func encodeTimeline(into container: inout KeyedEncodingContainer<TimelineKey>) throws {
        try container.encode(RewindJSON(enabled: timeline.rewind, granularity: timeline.rewindGranularity,
                                        bufferMegabytes: timeline.rewindBufferMegabytes), forKey: .rewind)
        try container.encode(RunAheadJSON(
            systems: Dictionary(uniqueKeysWithValues: timeline.runAheadPerSystem.map { ($0.key.rawValue, $0.value) }),
            games: timeline.runAheadPerGame), forKey: .runAhead)
        try container.encode(timeline.slowMotion, forKey: .slowMotion)
    }

    enum TimelineKey: String, CodingKey { case rewind, runAhead, slowMotion }

    private struct RewindJSON: Encodable {
        var enabled: Bool
        var granularity: Int
        var bufferMegabytes: Int
    }

    private struct RunAheadJSON: Encodable {
        var systems: [String: RunAheadChoice]
        var games: [String: RunAheadChoice]
    }
}
