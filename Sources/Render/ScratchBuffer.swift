/// Reusable raw storage for the downsampler's per-frame intermediate results: grows on demand,
/// never shrinks, freed with its owner. Raw pointers keep the inner loops free of array
/// bounds, uniqueness and exclusivity checks.
struct ScratchBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>?
    private var capacity = 0

    init() {}

    /// Storage for at least `count` elements; contents are unspecified. Valid until the next call.
    mutating func pointer(capacity count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity || storage == nil {
            storage?.deallocate()
            capacity = max(count, 1)
            storage = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        }
        return storage!
    }

    deinit {
        storage?.deallocate()
    }
}
