extension Collection<UInt8> {
    /// Runs `body` with the collection's bytes in one contiguous buffer, copying them only when
    /// the collection does not already store them contiguously. The buffer's base address may be
    /// nil when the collection is empty.
    func withContiguousBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = withContiguousStorageIfAvailable(body) {
            return result
        }
        return Array(self).withUnsafeBufferPointer(body)
    }
}
