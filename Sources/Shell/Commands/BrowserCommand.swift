import Foundation
import PhosphorKit

/// The game browser. (Wired once the library screen lands.)
enum BrowserCommand {
    static func run(paths: PhosphorPaths) throws -> Int32 {
        throw RomCheck.Failure(description: "the browser is not wired up yet in this build")
    }

    static func add(_ arguments: [String], paths: PhosphorPaths) throws -> Int32 {
        throw RomCheck.Failure(description: "add is not wired up yet in this build")
    }
}
