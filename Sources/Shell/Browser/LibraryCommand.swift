import Foundation
import Library

/// What the browser's menus and dialogs ask of the library. Screens send these as
/// `AppAction.library(_)`; the app hands them to the library screen.
enum LibraryCommand {
    case addFolder(URL)
    case removeFolder(URL)
    case rescan
    case cycleSort
    case toggleFavouritesOnly
    /// A game from the library started, or closed after so many seconds (play statistics).
    case gameStarted(GameLaunch)
    case gameFinished(GameLaunch, seconds: Int)
    /// The answer to the first-run question about RetroArch's folders (saved in the config).
    case chooseRetroArchFolders(RetroArchFoldersChoice)
}

/// A value copy of what the browser's menus show.
struct LibrarySnapshot {
    var sort: GameSort
    var favouritesOnly: Bool
    var folders: [(url: URL, isBundled: Bool)]
}

/// The screen that owns the library (the browser).
protocol LibraryCommandHandling: Screen {
    func perform(_ command: LibraryCommand)
    var librarySnapshot: LibrarySnapshot { get }
}

/// A screen that shows part of the library (the browser's menus): told after every command.
protocol LibraryObservingScreen: Screen {
    func libraryChanged(_ snapshot: LibrarySnapshot)
}
