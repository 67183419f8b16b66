/// A temporary file of ``SpilledValues`` that could not be written or read back.
enum SpillError: Error, CustomStringConvertible {
    case unwritable(String, (any Error)?)
    case unreadable(String, (any Error)?)
    case cutShort(String)

    var description: String {
        switch self {
        case .unwritable(let path, let error): "cannot write the temporary file \(path)\(error.map { ": \($0)" } ?? "")"
        case .unreadable(let path, let error): "cannot read back the temporary file \(path)\(error.map { ": \($0)" } ?? "")"
        case .cutShort(let path): "the temporary file \(path) is cut short"
        }
    }
}
