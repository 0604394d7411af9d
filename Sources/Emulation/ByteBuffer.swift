/// Byte arrays the core thread reuses frame after frame (a state buffer, the rewind ring's runs).
extension Array where Element == UInt8 {
    /// Sets the count without giving the memory back; new bytes are zeros. Core thread.
    mutating func resize(to count: Int) {
        if self.count > count {
            removeLast(self.count - count)
        } else if self.count < count {
            append(contentsOf: repeatElement(0, count: count - self.count))
        }
    }
}
