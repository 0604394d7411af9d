import Library
import PhosphorKit

/// The end of `phosphor add`'s output: the files it skipped and why, one line each, or, when
/// there are too many to read on a terminal, their count and where the full list went (the log).
struct SkippedFilesSummary {
    /// More than this many are written to the log instead of the terminal.
    static let maximumListed = 20

    let problems: [ScanProblem]

    /// This scan's problems, plus the stored ones under `folderPath`: files that were skipped in
    /// an earlier scan are not read again, but they are still skipped.
    init(scanProblems: [ScanProblem], stored: [ScanProblem], folderPath: String) {
        let prefix = folderPath.hasSuffix("/") ? folderPath : folderPath + "/"
        var problems = stored.filter { $0.path.hasPrefix(prefix) }
        for problem in scanProblems where !problems.contains(problem) { problems.append(problem) }
        self.problems = problems
    }

    /// The lines to print (none when nothing was skipped); `logFile` is where `log` puts the list.
    func lines(logFile: String) -> [String] {
        guard !problems.isEmpty else { return [] }
        let noun = problems.count == 1 ? "file" : "files"
        if problems.count > Self.maximumListed {
            return ["skipped \(problems.count) \(noun); the list is in \(DisplayText.sanitized(logFile))"]
        }
        return ["skipped \(problems.count) \(noun):"] + problems.map { "  " + DisplayText.sanitized($0.message) }
    }

    /// Writes every skipped file to the log (it is the only full list when the terminal gets the count).
    func log() {
        for problem in problems { Log.info("add: skipped \(problem.message)") }
    }
}
