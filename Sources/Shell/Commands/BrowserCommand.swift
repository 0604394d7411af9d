import Foundation
import Input
import Library
import PhosphorKit
import Terminal

/// `phosphor` (the game browser) and `phosphor add DIR`.
enum BrowserCommand {
    static func run(paths: PhosphorPaths, overrides: AppServices.Overrides = AppServices.Overrides()) throws -> Int32 {
        let services = AppServices(paths: paths)
        services.overrides = overrides
        let app = try PhosphorApp(services: services)
        app.libraryScreenFactory = {
            do {
                return try LibraryScreen(services: services)
            } catch {
                services.exitMessage = "\(error)"
                return QuitScreen()
            }
        }
        let status = app.run { _ in try LibraryScreen(services: services) }
        if let message = services.exitMessage { PhosphorCommand.printError(message) }
        return status
    }

    /// Adds a folder to the library, scans it, and prints how many games it holds and which files
    /// were skipped and why. On a terminal a progress line is shown meanwhile (a big folder takes
    /// minutes); when stdout is a file or pipe, only the summary.
    static func add(_ arguments: [String], paths: PhosphorPaths) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, valueOptions: [], flagOptions: [])
        guard parsed.positionals.count == 1 else {
            throw CommandLineArguments.UsageError(description: "add needs exactly one folder")
        }
        let url = URL(fileURLWithPath: parsed.positionals[0], isDirectory: true).standardizedFileURL
        try paths.createFolders()
        ProcessLocale.useUTF8()
        let library = try GameLibrary(url: paths.database)
        if let note = library.recoveryNote { PhosphorCommand.printError(note) }
        let folder = try library.addFolder(url)
        // Written unbuffered, and always before the first buffered `print` below.
        let columns = (try? terminalSize(of: STDOUT_FILENO).columns) ?? 80
        let progressLine = isatty(STDOUT_FILENO) == 1
            ? ScanProgressLine(columns: columns, write: { FileHandle.standardOutput.write(Data($0.utf8)) }) : nil
        // Ctrl-C stops the scan between batches; what was read so far stays in the library.
        do { try InterruptRequest.catch() } catch { Log.warning("add: \(error); Ctrl-C will end the scan at once") }
        let report = try library.scan(progress: { progressLine?.update($0) }, isCancelled: { InterruptRequest.isRequested })
        progressLine?.finish()
        let prefix = folder.url.path.hasSuffix("/") ? folder.url.path : folder.url.path + "/"
        let count = try library.gameCount(under: prefix)
        if report.wasCancelled {
            print("stopped (Ctrl-C): \(count) \(count == 1 ? "game" : "games") of \(DisplayText.sanitized(folder.url.path)) "
                + "kept so far; `phosphor add` again reads only the rest")
        } else {
            print("added \(DisplayText.sanitized(folder.url.path)): \(count) \(count == 1 ? "game" : "games")")
        }
        let skipped = SkippedFilesSummary(scanProblems: report.problems, stored: (try? library.problems()) ?? [],
                                          folderPath: folder.url.path)
        skipped.log()
        for line in skipped.lines(logFile: paths.logFile.path) { print(line) }
        return report.wasCancelled ? 130 : 0
    }
}

/// Stands in for the library when it cannot open after a game: quits at once, so the app ends
/// and prints the reason instead of showing an empty terminal.
private final class QuitScreen: Screen {
    func handle(_ event: InputEvent, now: ContinuousClock.Instant, actions: inout [AppAction]) -> EventResult { .consumed }
    func draw(in context: DrawContext) {}
    func tick(now: ContinuousClock.Instant, context: DrawContext, actions: inout [AppAction]) -> Duration? {
        actions.append(.quit)
        return nil
    }
}
