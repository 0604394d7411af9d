/// How the game picture reaches the terminal: `auto` uses real pixels where the terminal said
/// it has them (the kitty graphics protocol first, then sixel) and half blocks elsewhere; the
/// others ask for one (a pixel mode the terminal did not confirm falls back to half blocks and
/// says so). Set by `--video`, the pause menu's Video item and `video.videoMode` in config.json.
public enum VideoModeChoice: String, CaseIterable, Sendable, Codable {
    case auto
    case kitty
    case sixel
    case blocks
}
