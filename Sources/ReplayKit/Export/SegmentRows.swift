import SDK

/// The NDJSON rows of one segment of a journal exported alone, from its snapshot
/// (``JournalExport/exportNDJSON(_:_:into:console:progressPrefix:jobs:)``): whole lines, newline
/// included, in pieces of about ``pieceSize`` bytes, and the places where a row says `null` for
/// a project's label only because no label for the project was learned in the segment (a
/// ``Hole``): the join fills those with the label the segments before learned, if they learned one.
///
/// Written on one worker thread, then handed to the joining thread; a value.
struct SegmentRows: Sendable {
    /// Bytes of whole lines: the first `count` bytes of `bytes` (the rest is room, not initialized).
    struct Piece: Sendable {
        fileprivate(set) var bytes: [UInt8]
        fileprivate(set) var count: Int
    }

    /// A label column written `null` for want of a label: at `offset` in piece `piece`, for `project`.
    struct Hole: Sendable {
        let piece: Int
        let offset: Int
        let project: ProjectFingerprint
    }

    /// Bytes a piece is made with.
    static let pieceSize = 1 << 20
    /// Room a line is written into in place; a longer one is copied into a piece of its own.
    static let lineRoom = 1 << 14

    private(set) var pieces: [Piece] = []
    /// In the order of the rows, and within a row of their offsets.
    private(set) var holes: [Hole] = []
    /// The rows written.
    private(set) var lines = 0

    /// Where a line was written: its piece, and its offset there.
    typealias Place = (piece: Int, offset: Int)

    /// Writes a line with `write` (which writes it without its newline) after the others;
    /// returns where it went (for ``noteUnknownLabels(_:inLineAt:)``).
    @discardableResult
    mutating func writeLine(_ write: (inout ScratchBytes) -> Void) -> Place {
        if pieces.isEmpty || pieces[pieces.count - 1].bytes.count - pieces[pieces.count - 1].count < Self.lineRoom {
            pieces.append(Piece(bytes: Self.room(Self.pieceSize), count: 0))
        }
        let last = pieces.count - 1
        let used = pieces[last].count
        var written = 0
        var outgrown: [UInt8]?
        pieces[last].bytes.withUnsafeMutableBufferPointer { room in
            let end = room.baseAddress! + used
            ScratchBytes.withBuffer(at: end, capacity: room.count - used, { line in
                write(&line)
                line.append(UInt8(ascii: "\n"))
            }, finish: { line in
                if line.baseAddress == UnsafePointer(end) { written = line.count } else { outgrown = Array(line) }
            })
        }
        lines += 1
        guard let outgrown else {
            pieces[last].count += written
            return (last, used)
        }
        // It outgrew the room: a piece of its own, full, so the next line begins another.
        pieces.append(Piece(bytes: outgrown, count: outgrown.count))
        return (pieces.count - 1, 0)
    }

    /// Notes as holes of the line written at `place` the label columns `unknownLabels` gives
    /// (offsets in the line: ``FleetColumns/unknownLabels``), and empties it.
    mutating func noteUnknownLabels(_ unknownLabels: inout [(offset: Int, project: ProjectFingerprint)], inLineAt place: Place) {
        for label in unknownLabels {
            holes.append(Hole(piece: place.piece, offset: place.offset + label.offset, project: label.project))
        }
        unknownLabels.removeAll(keepingCapacity: true)
    }

    /// Hands the bytes to `write` in order, each hole whose project `label` names a label for
    /// replaced by that label as a JSON string (the others keep their `null`).
    func forEachRun(label: (ProjectFingerprint) -> String?, _ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var hole = 0
        for (index, piece) in pieces.enumerated() {
            try piece.bytes.withUnsafeBytes { bytes in
                var from = 0
                while hole < holes.count, holes[hole].piece == index {
                    defer { hole += 1 }
                    guard let text = label(holes[hole].project) else { continue }
                    let offset = holes[hole].offset
                    try write(UnsafeRawBufferPointer(rebasing: bytes[from..<offset]))
                    var json: [UInt8] = []
                    JSONValue.string(text).write(to: &json)
                    try json.withUnsafeBytes(write)
                    from = offset + Self.nullLength
                }
                try write(UnsafeRawBufferPointer(rebasing: bytes[from..<piece.count]))
            }
        }
    }

    /// The bytes of the `null` a hole holds.
    private static let nullLength = 4

    private static func room(_ count: Int) -> [UInt8] {
        Array(unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
}
