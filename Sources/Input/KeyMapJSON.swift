import PhosphorKit

/// Key-map and gamepad-map files are JSON objects read with `PositionedJSON`, so every error can
/// name its line.
enum KeyMapJSON {
    /// Parses a file whose top level must be an object, with errors as `KeyMapFileError`s.
    static func parseObject(_ text: String) throws(KeyMapFileError) -> [PositionedJSON.Member] {
        let root: PositionedJSON
        do {
            root = try PositionedJSON.parse(Array(text.utf8))
        } catch {
            throw KeyMapFileError(line: error.line, message: "not valid JSON: \(error.message)")
        }
        guard case .object(let members) = root.value else {
            throw KeyMapFileError(line: root.line, message: "the file must hold one JSON object { ... }")
        }
        return members
    }
}
