extension Duration {
    /// The duration as seconds in a Double (for rates, pacing and fps).
    public var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// Whole nanoseconds, rounded up, so a wait never ends before the moment it was meant for
    /// (a timeout rounded down wakes early, and a loop waiting for a deadline then spins).
    public var nanoseconds: Int64 {
        let parts = components
        let (whole, remainder) = parts.attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return parts.seconds * 1_000_000_000 + whole + (remainder > 0 ? 1 : 0)
    }
}
