/// What a pass let go and could not get back: a temporary file (``UnlinkedTemporaryFile``) that
/// could not be made, written or read back, named by what it was made for, or a record that the
/// journal no longer holds when read again.
enum SpillError: Error, CustomStringConvertible {
    case unwritable(String, (any Error)?)
    case unreadable(String, (any Error)?)
    case cutShort(String)
    case recordGone(sequence: UInt64)

    var description: String {
        switch self {
        case .unwritable(let name, let error): "cannot write the temporary file of \(name)\(error.map { ": \($0)" } ?? "")"
        case .unreadable(let name, let error): "cannot read back the temporary file of \(name)\(error.map { ": \($0)" } ?? "")"
        case .cutShort(let name): "the temporary file of \(name) is cut short"
        case .recordGone(let sequence): "the journal no longer holds record \(sequence), read by the pass (was it changed meanwhile?)"
        }
    }
}
