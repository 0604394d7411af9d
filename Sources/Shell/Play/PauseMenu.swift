import Foundation
import Input
import PhosphorKit
import Render
import Terminal

/// The pause menu (Esc by default): the game is paused behind it. It shows a snapshot of the
/// game and changes it only through `GameCommand`s; settings changed here are saved to the
/// config when the game closes. UI thread only.
final class PauseMenu: ListMenu, GameObservingScreen {
    private var game: GameSnapshot

    init(snapshot: GameSnapshot) {
        game = snapshot
        super.init(title: "Paused — \(snapshot.system.displayName)")
        width = 50
        help = "↑↓ choose · Enter select · Esc/F1 back"
        reload()
    }

    /// F1 opens the menu (for GNU screen, which holds a lone Esc back) and closes it again.
    override func handleOther(_ key: Key, modifiers: KeyModifiers, actions: inout [AppAction]) -> Bool {
        guard key == .function(1), modifiers.isEmpty else { return false }
        close(actions: &actions)
        return true
    }

    func gameChanged(_ snapshot: GameSnapshot, outcome: GameCommandOutcome?) {
        game = snapshot
        reload()
    }

    override func reload() {
        let game = self.game
        var list: [MenuItem] = [
            MenuItem(label: "Resume", activate: { [unowned self] in close(actions: &$0) }),
            MenuItem(label: "Save State", value: "slot \(game.slot) ▸", activate: {
                $0.append(.push(StateSlotsMenu(snapshot: game, mode: .save)))
            }),
            MenuItem(label: "Load State", value: "▸", activate: {
                $0.append(.push(StateSlotsMenu(snapshot: game, mode: .load)))
            }),
            MenuItem(label: "Undo Last Load", enabled: game.canUndoLoad, activate: {
                $0 += [.game(.undoLoad), .closeOverlays]
            }),
            MenuItem(label: "Fast Forward", value: "◂ \(game.fastForwardText) ▸", adjust: { step, actions in
                actions.append(.game(.stepFastForwardSpeed(step)))
            }),
            MenuItem(label: "Hold Buttons", value: (game.holdText ?? "none") + " ▸", activate: {
                $0.append(.push(HoldButtonsMenu(snapshot: game)))
            }),
            MenuItem(label: "Cheat Codes", value: game.cheats.summary + " ▸", activate: {
                $0.append(.push(CheatsMenu(snapshot: game)))
            }),
            MenuItem(label: "Key Mapping", value: "▸", activate: {
                $0.append(.push(KeyMapEditor(snapshot: game)))
            }),
            MenuItem(label: "Rewind & Run-Ahead", value: "▸", activate: {
                $0.append(.push(TimelineMenu(snapshot: game)))
            }),
            MenuItem(label: "Core Options", value: "▸", activate: {
                $0.append(.push(CoreOptionsMenu(snapshot: game)))
            }),
            MenuItem(label: "Screenshot", activate: { $0 += [.game(.screenshot), .closeOverlays] }),
            MenuItem(label: "Video", value: "◂ \(game.videoMode.rawValue) ▸", adjust: { step, actions in
                actions.append(.game(.stepVideoMode(step)))
            }),
            MenuItem(label: "Colour", value: "◂ \(game.colorMode.rawValue) ▸", adjust: { step, actions in
                actions.append(.game(.stepColorMode(step)))
            }),
        ]
        if let volume = game.volume {
            list.append(MenuItem(label: "Volume", value: "◂ \(volume)% ▸", adjust: { step, actions in
                actions.append(.game(.stepVolume(step)))
            }))
            list.append(MenuItem(label: "Sound", value: game.muted ? "muted" : "on", activate: {
                $0.append(.game(.toggleMute))
            }))
        } else {
            list.append(MenuItem(label: "Sound", value: game.audioStatus ?? "off", enabled: false))
        }
        if game.system == .nds {
            list.append(MenuItem(label: "Screens", value: "◂ \(game.dsLayout.rawValue) ▸", adjust: { step, actions in
                actions.append(.game(.stepDSLayout(step)))
            }))
        }
        list.append(MenuItem(label: "Status Bar", value: game.statusBarVisible ? "shown" : "hidden", activate: {
            $0.append(.game(.toggleStatusBar))
        }))
        list.append(MenuItem(label: "Reset", activate: { $0 += [.game(.reset), .closeOverlays] }))
        list.append(MenuItem(label: game.launchedFromLibrary ? "Quit to Library" : "Quit", activate: {
            $0.append(game.launchedFromLibrary ? .returnToLibrary : .quit)
        }))
        items = list
    }
}
