/// Why an export could not be written.
enum ExportError: Error, CustomStringConvertible {
    case exists(String)
    case cannotWrite(String)

    var description: String {
        switch self {
        case .exists(let path): "\(path) already exists (choose a new path, or an empty directory for a journal)"
        case .cannotWrite(let path): "\(path): cannot create the file"
        }
    }
}
