import Foundation
import Terminal

/// Asked once in the browser when RetroArch is installed for this user (`~/.config/retroarch`)
/// and nothing was chosen yet: share RetroArch's save, state and BIOS folders, or keep
/// Phosphor's own. The answer is a `LibraryCommand` (saved in the config); Esc asks again next
/// time. UI thread only.
final class RetroArchFoldersQuestion: ListMenu {
    init() {
        super.init(title: "RetroArch found")
        width = 64
        help = "↑↓ choose · Enter select · Esc ask later"
        message = "Use RetroArch's folders for battery saves, states and BIOS files, so both programs continue the same games?"
        reload()
    }

    override func reload() {
        items = [
            MenuItem(label: "Use RetroArch's folders", activate: { $0 += [.library(.chooseRetroArchFolders(.share)), .pop] }),
            MenuItem(label: "Keep Phosphor's own folders", activate: { $0 += [.library(.chooseRetroArchFolders(.own)), .pop] }),
        ]
    }

    override func draw(in context: DrawContext) {
        if message == nil {
            message = "Use RetroArch's folders for battery saves, states and BIOS files, so both programs continue the same games?"
        }
        super.draw(in: context)
    }
}
