/// A minimal argument reader: `--flag`, `--option VALUE`, `--option=VALUE`, and positionals.
struct CommandLineArguments {
    private(set) var flags: Set<String> = []
    /// The last value of each option.
    private(set) var options: [String: String] = [:]
    /// Every value of each option, in order (for repeatable options such as `--cheat`).
    private(set) var allValues: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// - Parameters:
    ///   - valueOptions: options that take a value (without the dashes).
    ///   - flagOptions: options that take none.
    init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagOptions.contains(name) {
                flags.insert(name)
            } else if valueOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError(description: "--\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                options[name] = value
                allValues[name, default: []].append(value)
            } else {
                throw UsageError(description: "unknown option --\(name)")
            }
        }
    }

    func integer(_ name: String) throws -> Int? {
        guard let text = options[name] else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw UsageError(description: "--\(name) takes a whole number, not '\(text)'")
        }
        return value
    }
}
