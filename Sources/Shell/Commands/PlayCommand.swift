import Foundation
import PhosphorKit

/// `phosphor play ROM`: a game straight in the terminal. (Wired to the play screen once it exists.)
enum PlayCommand {
    static func run(_ arguments: [String], paths: PhosphorPaths) throws -> Int32 {
        throw RomCheck.Failure(description: "play is not wired up yet in this build")
    }
}

/// The game browser. (Wired once the library lands.)
enum BrowserCommand {
    static func run(paths: PhosphorPaths) throws -> Int32 {
        throw RomCheck.Failure(description: "the browser is not wired up yet in this build")
    }

    static func add(_ arguments: [String], paths: PhosphorPaths) throws -> Int32 {
        throw RomCheck.Failure(description: "add is not wired up yet in this build")
    }
}
