/// What deleting old segments did (``WriterState``): what went and what stayed, and why.
struct SegmentRemoval {
    private(set) var segmentsDeleted = 0
    private(set) var bytesDeleted = 0
    private(set) var segmentsLeft = 0
    private(set) var bytesLeft = 0
    /// The last error of a file that stayed.
    private(set) var failure: String?
    /// Why the directory's deletions may not be durable.
    var syncFailure: String?

    mutating func deleted(_ bytes: Int) {
        segmentsDeleted += 1
        bytesDeleted += bytes
    }

    mutating func left(_ bytes: Int, because reason: String) {
        segmentsLeft += 1
        bytesLeft += bytes
        failure = reason
    }
}
