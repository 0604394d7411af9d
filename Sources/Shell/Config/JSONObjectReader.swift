import PhosphorKit

/// A problem with one value in a user's JSON file: the line it is on and what is wrong,
/// e.g. line 7, "audio.volume must be between 0 and 100 (found 150)".
struct JSONFieldProblem: Error, Sendable, Equatable {
    var line: Int
    var message: String
}

/// Reads the members of one JSON object by key, checking types and ranges and remembering which
/// keys were read so the rest can be reported as unknown. Missing keys read as `nil`, which is how
/// a file written by an older version gets defaults. Any thread (value type).
struct JSONObjectReader {
    /// The dotted path of this object inside the document ("" for the top level), for messages.
    let path: String
    /// Line of the object's opening brace.
    let line: Int
    let members: [PositionedJSON.Member]
    private var readKeys: Set<String> = []

    init(_ node: PositionedJSON, path: String) throws(JSONFieldProblem) {
        guard case .object(let members) = node.value else {
            throw JSONFieldProblem(line: node.line,
                                   message: "\(path.isEmpty ? "the document" : path) must be an object, found \(node.kindName)")
        }
        self.path = path
        self.line = node.line
        self.members = members
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The last member with this key (JSON's usual "last one wins").
    mutating func node(_ key: String) -> PositionedJSON? {
        readKeys.insert(key)
        return members.last { $0.key == key }?.value
    }

    /// Members that were never read: unknown keys, with their lines.
    func unreadMembers() -> [PositionedJSON.Member] {
        members.filter { !readKeys.contains($0.key) }
    }

    mutating func object(_ key: String) throws(JSONFieldProblem) -> JSONObjectReader? {
        guard let node = node(key) else { return nil }
        return try JSONObjectReader(node, path: fieldPath(key))
    }

    mutating func string(_ key: String) throws(JSONFieldProblem) -> String? {
        guard let node = node(key) else { return nil }
        guard case .string(let text) = node.value else { throw mismatch(key, node, expected: "a string") }
        return text
    }

    mutating func bool(_ key: String) throws(JSONFieldProblem) -> Bool? {
        guard let node = node(key) else { return nil }
        guard case .bool(let flag) = node.value else { throw mismatch(key, node, expected: "true or false") }
        return flag
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(JSONFieldProblem) -> Int? {
        guard let node = node(key) else { return nil }
        return try Self.integer(node, path: fieldPath(key), in: range)
    }

    /// One of a fixed set of strings, e.g. a colour mode.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ key: String, as type: Choice.Type
    ) throws(JSONFieldProblem) -> Choice? where Choice.RawValue == String {
        guard let node = node(key) else { return nil }
        return try Self.choice(node, path: fieldPath(key), as: type)
    }

    mutating func stringList(_ key: String) throws(JSONFieldProblem) -> [String]? {
        guard let node = node(key) else { return nil }
        guard case .array(let elements) = node.value else { throw mismatch(key, node, expected: "a list of strings") }
        var strings: [String] = []
        for (position, element) in elements.enumerated() {
            guard case .string(let text) = element.value else {
                throw JSONFieldProblem(line: element.line,
                                       message: "\(fieldPath(key))[\(position)] must be a string, found \(element.kindName)")
            }
            strings.append(text)
        }
        return strings
    }

    private func mismatch(_ key: String, _ node: PositionedJSON, expected: String) -> JSONFieldProblem {
        JSONFieldProblem(line: node.line, message: "\(fieldPath(key)) must be \(expected), found \(node.kindName)")
    }

    static func integer(_ node: PositionedJSON, path: String, in range: ClosedRange<Int>) throws(JSONFieldProblem) -> Int {
        guard case .number(let number) = node.value else {
            throw JSONFieldProblem(line: node.line, message: "\(path) must be a whole number, found \(node.kindName)")
        }
        guard number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw JSONFieldProblem(line: node.line,
                                   message: "\(path) must be a whole number from \(range.lowerBound) to \(range.upperBound) (found \(formatted(number)))")
        }
        return Int(number)
    }

    static func choice<Choice: RawRepresentable & CaseIterable>(
        _ node: PositionedJSON, path: String, as type: Choice.Type
    ) throws(JSONFieldProblem) -> Choice where Choice.RawValue == String {
        let allowed = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard case .string(let text) = node.value else {
            throw JSONFieldProblem(line: node.line, message: "\(path) must be one of \(allowed), found \(node.kindName)")
        }
        guard let choice = Choice(rawValue: text) else {
            throw JSONFieldProblem(line: node.line, message: "\(path) must be one of \(allowed) (found \"\(text)\")")
        }
        return choice
    }

    static func formatted(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
