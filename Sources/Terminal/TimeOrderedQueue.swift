/// Values in the order they were added, taken from the front without moving the rest: the link
/// pacer's frames in flight and its recent samples. `Array.removeFirst(_:)` called from here ran
/// the standard library's unspecialised `replaceSubrange` and the values' runtime witnesses at
/// every answer (perf: most of `LinkPacer.replyReceived`). Whoever owns it uses it on one thread.
struct TimeOrderedQueue<Element> {
    private var storage: [Element] = []
    /// Index in `storage` of the oldest value still held.
    private var head = 0

    var count: Int { storage.count &- head }
    var isEmpty: Bool { head == storage.count }
    var first: Element? { isEmpty ? nil : storage[head] }
    var last: Element? { isEmpty ? nil : storage[storage.count &- 1] }

    /// The value at `offset` from the oldest (0) to the newest (`count - 1`).
    subscript(offset: Int) -> Element { storage[head &+ offset] }

    mutating func append(_ value: Element) {
        // The taken values' places are reused once they are half of the storage, so it never
        // grows past twice what is held (and a shift of the rest costs the same per value taken).
        if head >= 32 && head &* 2 >= storage.count {
            storage.removeSubrange(0..<head)
            head = 0
        }
        storage.append(value)
    }

    /// Takes the oldest value (the queue must not be empty).
    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(!isEmpty, "removeFirst on an empty TimeOrderedQueue")
        let value = storage[head]
        head &+= 1
        if head == storage.count { removeAll() }
        return value
    }

    /// Takes the oldest values for as long as `isExpired` says so.
    mutating func removeFirst(while isExpired: (Element) -> Bool) {
        while head < storage.count, isExpired(storage[head]) { head &+= 1 }
        if head == storage.count { removeAll() }
    }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }
}

extension TimeOrderedQueue: Sendable where Element: Sendable {}
