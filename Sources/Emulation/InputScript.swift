import Foundation
import PhosphorKit

/// A scripted player-1 input for headless runs: lines `FRAME BUTTONS` (e.g. `120 a+right`,
/// `200 -`); from that frame on, player 1 holds exactly those buttons. `#` starts a comment.
public struct InputScript: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var frame: UInt64
        public var buttons: ButtonMask
    }

    public private(set) var steps: [Step]

    public init(steps: [Step]) { self.steps = steps.sorted { $0.frame < $1.frame } }

    public struct ParseError: Error, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var problem: String
        /// One line; the quoted text from the file has its control characters replaced.
        public var description: String { "\(file):\(line): \(DisplayText.sanitized(problem))" }
    }

    public init(parsing text: String, file: String = "input") throws {
        var steps: [Step] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map(String.init)?.trimmingWhitespace() ?? ""
            if line.isEmpty { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2, let frame = UInt64(fields[0]) else {
                throw ParseError(file: file, line: index + 1, problem: "expected 'FRAME BUTTONS', got '\(line)'")
            }
            do {
                steps.append(Step(frame: frame, buttons: try ButtonMask(parsing: String(fields[1]))))
            } catch {
                throw ParseError(file: file, line: index + 1, problem: "\(error)")
            }
        }
        self.init(steps: steps)
    }

    /// The buttons held during `frame`.
    public func buttons(at frame: UInt64) -> ButtonMask {
        var current: ButtonMask = []
        for step in steps {
            if step.frame > frame { break }
            current = step.buttons
        }
        return current
    }
}
