import Foundation
import Library
import PhosphorKit
import Terminal

/// The browser's menu (Ctrl-O / F9): folders, rescan, sort, favourites, quit. It shows a
/// snapshot of the library and changes it through `LibraryCommand`s. UI thread only.
final class BrowserMenu: ListMenu, LibraryObservingScreen {
    private var library: LibrarySnapshot

    init(snapshot: LibrarySnapshot) {
        library = snapshot
        super.init(title: "Library")
        reload()
    }

    func libraryChanged(_ snapshot: LibrarySnapshot) {
        library = snapshot
        reload()
    }

    override func reload() {
        let library = self.library
        items = [
            MenuItem(label: "Add Folder…", activate: {
                // Over this menu: Esc in the dialog comes back here.
                $0.append(.push(AddFolderDialog.make()))
            }),
            MenuItem(label: "Folders", value: "▸", activate: {
                $0.append(.push(FoldersMenu(snapshot: library)))
            }),
            MenuItem(label: "Rescan Library", activate: { [unowned self] in
                $0.append(.library(.rescan))
                close(actions: &$0)
            }),
            MenuItem(label: "Sort", value: "◂ \(BrowserText.sortName(library.sort)) ▸", adjust: { _, actions in
                actions.append(.library(.cycleSort))
            }),
            MenuItem(label: "Favourites Only", value: library.favouritesOnly ? "on" : "off", adjust: { _, actions in
                actions.append(.library(.toggleFavouritesOnly))
            }),
            MenuItem(label: "Quit Phosphor", activate: { $0.append(.quit) }),
        ]
    }
}

/// The library folders; Enter twice removes one (its games leave the list, the files stay).
/// The bundled demo cartridges cannot be removed. UI thread only.
final class FoldersMenu: ListMenu, LibraryObservingScreen {
    private var folders: [(url: URL, isBundled: Bool)]
    private var armed: URL?

    init(snapshot: LibrarySnapshot) {
        folders = snapshot.folders
        super.init(title: "Library Folders")
        width = 70
        help = "Enter twice remove · Esc back"
        reload()
    }

    func libraryChanged(_ snapshot: LibrarySnapshot) {
        folders = snapshot.folders
        reload()
    }

    override func reload() {
        items = folders.map { folder in
            MenuItem(label: DisplayText.sanitized(folder.url.path),
                     value: folder.isBundled ? "built in" : (armed == folder.url ? "Enter: remove" : ""),
                     enabled: !folder.isBundled,
                     activate: { [unowned self] actions in
                         if armed == folder.url {
                             armed = nil
                             actions.append(.library(.removeFolder(folder.url)))
                         } else {
                             armed = folder.url
                             message = "press Enter again to remove it (the files stay on disk)"
                         }
                     })
        }
        if items.isEmpty { items = [MenuItem(label: "(no folders)", enabled: false)] }
    }
}

/// "Add Folder": a path typed or pasted; a path that is no folder is refused in the dialog,
/// a good one goes to the library as `.addFolder`.
enum AddFolderDialog {
    static func make() -> TextEntryDialog {
        TextEntryDialog(title: "Add Folder", prompt: "Folder with games (type or paste a path):", decide: { typed in
            let trimmed = typed.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return .rejected("type a folder path") }
            let url = URL(fileURLWithPath: (trimmed as NSString).expandingTildeInPath, isDirectory: true)
            do {
                try GameLibrary.checkFolder(url)
            } catch {
                return .rejected("\(error)")
            }
            return .accepted(then: [.library(.addFolder(url))])
        })
    }
}
