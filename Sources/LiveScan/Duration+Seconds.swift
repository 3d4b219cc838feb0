extension Duration {
    /// The duration in seconds, as a `Double` (the session's clock and the out-of-focus budget).
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}
