extension Duration {
    /// The duration as seconds in a Double (for rates, pacing and fps).
    public var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
