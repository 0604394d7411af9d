import Foundation
import Library
import PhosphorKit

/// The browser's menu (Ctrl-O / F9): folders, rescan, sort, favourites, quit. UI thread only.
final class BrowserMenu: ListMenu {
    private unowned let library: LibraryScreen

    init(library: LibraryScreen) {
        self.library = library
        super.init(title: "Library")
        reload()
    }

    override func reload() {
        let library = self.library
        items = [
            MenuItem(label: "Add Folder…", activate: { [unowned self] in
                // Over this menu: Esc in the dialog comes back here.
                pending.append(.push(TextEntryDialog(title: "Add Folder", prompt: "Folder with games (type or paste a path):") {
                    library.addFolder(path: $0)
                }))
            }),
            MenuItem(label: "Folders", value: "▸", activate: { [unowned self] in
                pending.append(.push(FoldersMenu(library: library)))
            }),
            MenuItem(label: "Rescan Library", activate: { [unowned self] in
                library.rescan()
                close()
            }),
            MenuItem(label: "Sort", value: "◂ \(BrowserText.sortName(library.model.sort)) ▸", adjust: { _ in library.cycleSort() }),
            MenuItem(label: "Favourites Only", value: library.model.favouritesOnly ? "on" : "off",
                     adjust: { _ in library.toggleFavouritesOnly() }),
            MenuItem(label: "Quit Phosphor", activate: { [unowned self] in pending.append(.quit) }),
        ]
    }
}

/// The library folders; Enter twice removes one (its games leave the list, the files stay).
/// The bundled demo cartridges cannot be removed. UI thread only.
final class FoldersMenu: ListMenu {
    private unowned let library: LibraryScreen
    private var armed: URL?

    init(library: LibraryScreen) {
        self.library = library
        super.init(title: "Library Folders")
        width = 70
        help = "Enter twice remove · Esc back"
        reload()
    }

    override func reload() {
        let library = self.library
        let folders = (try? library.library.folders()) ?? []
        items = folders.map { folder in
            let bundled = library.isBundled(folder.url)
            return MenuItem(label: DisplayText.sanitized(folder.url.path),
                            value: bundled ? "built in" : (armed == folder.url ? "Enter: remove" : ""),
                            enabled: !bundled,
                            activate: { [unowned self] in
                                if armed == folder.url {
                                    armed = nil
                                    library.removeFolder(folder.url)
                                } else {
                                    armed = folder.url
                                    message = "press Enter again to remove it (the files stay on disk)"
                                }
                            })
        }
        if items.isEmpty { items = [MenuItem(label: "(no folders)", enabled: false)] }
    }
}
