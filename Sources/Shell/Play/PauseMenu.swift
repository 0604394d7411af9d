import Foundation
import Input
import PhosphorKit
import Render

/// The pause menu (Esc by default): the game is paused behind it. Settings changed here are
/// saved to the config when the game closes.
final class PauseMenu: ListMenu {
    private unowned let play: PlayScreen

    init(play: PlayScreen) {
        self.play = play
        super.init(title: "Paused — \(play.system.displayName)")
        width = 50
        reload()
    }

    override func willClose() { play.menuClosed() }

    override func reload() {
        let play = self.play
        let services = play.services
        var list: [MenuItem] = [
            MenuItem(label: "Resume", activate: { [unowned self] in close() }),
            MenuItem(label: "Save State", value: "slot \(play.slot) ▸", activate: { [unowned self] in
                pending.append(.push(StateSlotsMenu(play: play, mode: .save)))
            }),
            MenuItem(label: "Load State", value: "▸", activate: { [unowned self] in
                pending.append(.push(StateSlotsMenu(play: play, mode: .load)))
            }),
            MenuItem(label: "Undo Last Load", enabled: play.states.canUndoLoad, activate: { [unowned self] in
                play.undoLoad()
                close()
            }),
            MenuItem(label: "Fast Forward", value: "◂ \(play.speedText) ▸", adjust: { step in
                let maximum = services.config.fastForward.maximumPerSystem[play.system]
                let allowed = FastForwardSpeed.allCases.filter { maximum == nil || $0 <= maximum! }
                let current = allowed.firstIndex { Double($0.multiplier ?? 0) == play.fastForwardSpeed } ?? 0
                let next = allowed[(current + step + allowed.count) % allowed.count]
                play.setFastForwardSpeed(Double(next.multiplier ?? 0))
                services.configStore.config.fastForward.speed = next
            }),
            MenuItem(label: "Hold Buttons", value: (play.input.holdStatusText ?? "none") + " ▸", activate: { [unowned self] in
                pending.append(.push(HoldButtonsMenu(play: play)))
            }),
            MenuItem(label: "Cheat Codes", value: play.cheatSummary + " ▸", activate: { [unowned self] in
                pending.append(.push(CheatsMenu(play: play)))
            }),
            MenuItem(label: "Key Mapping", value: "▸", activate: { [unowned self] in
                pending.append(.push(KeyMapEditor(play: play)))
            }),
            MenuItem(label: "Screenshot", activate: { [unowned self] in
                play.takeScreenshot()
                close()
            }),
            MenuItem(label: "Colour", value: "◂ \(play.picture.colorMode.rawValue) ▸", adjust: { step in
                let modes = ColorMode.allCases
                let index = modes.firstIndex(of: play.picture.colorMode) ?? 0
                let next = modes[(index + step + modes.count) % modes.count]
                play.setColorMode(next)
                services.configStore.config.video.colorMode = ColorModeChoice(rawValue: next.rawValue) ?? .auto
            }),
        ]
        if let audio = play.audio {
            list.append(MenuItem(label: "Volume", value: "◂ \(Int((audio.volume * 100).rounded()))% ▸", adjust: { step in
                let volume = min(100, max(0, Int((audio.volume * 100).rounded()) + step * 10))
                audio.setVolume(Double(volume) / 100)
                services.configStore.config.audio.volume = volume
            }))
            list.append(MenuItem(label: "Sound", value: services.config.audio.muted ? "muted" : "on", activate: {
                play.toggleMute()
            }))
        } else {
            list.append(MenuItem(label: "Sound", value: play.audioStatus ?? "off", enabled: false))
        }
        if play.system == .nds {
            list.append(MenuItem(label: "Screens", value: "◂ \(play.dsLayout.rawValue) ▸", adjust: { step in
                let layouts = DSScreenLayout.allCases
                let index = layouts.firstIndex(of: play.dsLayout) ?? 0
                play.dsLayout = layouts[(index + step + layouts.count) % layouts.count]
                services.configStore.config.dsLayout = play.dsLayout
            }))
        }
        list.append(MenuItem(label: "Status Bar", value: play.statusBarVisible ? "shown" : "hidden", activate: {
            play.statusBarVisible.toggle()
            services.configStore.config.video.showStatusBar = play.statusBarVisible
        }))
        list.append(MenuItem(label: "Reset", activate: { [unowned self] in
            var ignored: [AppAction] = []
            play.perform(.reset, actions: &ignored)
            close()
        }))
        list.append(MenuItem(label: play.launch.gameID == nil ? "Quit" : "Quit to Library", activate: { [unowned self] in
            pending.append(play.launch.gameID == nil ? .quit : .returnToLibrary)
        }))
        items = list
    }
}
