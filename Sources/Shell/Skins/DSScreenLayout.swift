/// The DS screen arrangement the user picked (saved in the config). Maps onto the DS skin's
/// arrangements: `stacked`, `side-by-side`, and `single-screen` showing the top or the bottom screen.
public enum DSScreenLayout: String, CaseIterable, Sendable, Codable {
    case stacked
    case sideBySide = "side-by-side"
    case singleTop = "single-top"
    case singleBottom = "single-bottom"

    /// The skin arrangement name.
    public var arrangementName: String {
        switch self {
        case .stacked: "stacked"
        case .sideBySide: "side-by-side"
        case .singleTop, .singleBottom: "single-screen"
        }
    }

    /// For the single-screen arrangement: 0 = top screen, 1 = bottom screen.
    public var shownScreen: Int { self == .singleBottom ? 1 : 0 }

    /// The single-screen toggle: top ↔ bottom (from stacked or side-by-side: the bottom screen,
    /// where the touch screen is).
    public func togglingSingleScreen() -> DSScreenLayout {
        self == .singleBottom ? .singleTop : .singleBottom
    }

    /// The next layout in menu order (stacked → side-by-side → single top → single bottom → stacked).
    public func next() -> DSScreenLayout {
        let all = DSScreenLayout.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
