extension Collection<UInt8> {
    /// Runs `body` with the collection's bytes in one contiguous buffer, copying them only when
    /// the collection does not already store them contiguously. The buffer's base address may be
    /// nil when the collection is empty. (For a string's `utf8`: a native string's bytes are read
    /// where they lie, without the copy `withUTF8` makes to get a mutable string.)
    @inlinable @inline(__always)
    package func withContiguousBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = withContiguousStorageIfAvailable(body) {
            return result
        }
        return Array(self).withUnsafeBufferPointer(body)
    }
}
