/// One core option as the core defines it (libretro core options v0, v1 or v2). Any thread.
public struct CoreOptionDefinition: Sendable, Equatable {
    public var key: String
    public var description: String
    public var values: [String]
    public var defaultValue: String
    /// The longer explanation (v1/v2 `info`; empty for v0).
    public var info: String = ""
    /// The v2 category's description ("Audio", "Video"); empty when the core gives none.
    public var category: String = ""
    /// Labels shown for values (v1/v2 `label`), by value; a value without one shows itself.
    public var labels: [String: String] = [:]

    public init(key: String, description: String, values: [String], defaultValue: String, info: String = "",
                category: String = "", labels: [String: String] = [:]) {
        self.key = key
        self.description = description
        self.values = values
        self.defaultValue = defaultValue
        self.info = info
        self.category = category
        self.labels = labels
    }

    /// Whether a change needs the game restarted: libretro has no field for it, so only what the
    /// core writes says so ("(Restart)", "requires restart" in the description or info); every
    /// other option is applied live (GET_VARIABLE_UPDATE).
    public var needsRestart: Bool {
        (description + " " + info).lowercased().contains("restart")
    }

    public func label(of value: String) -> String { labels[value].flatMap { $0.isEmpty ? nil : $0 } ?? value }
}

/// A core option and its current value, for the Core Options screen. Any thread (a copy).
public struct CoreOptionState: Sendable, Equatable {
    public var definition: CoreOptionDefinition
    public var value: String
    /// The value comes from this game's own file (it overrides the core's).
    public var isGameOverride: Bool

    public init(definition: CoreOptionDefinition, value: String, isGameOverride: Bool) {
        self.definition = definition
        self.value = value
        self.isGameOverride = isGameOverride
    }
}
