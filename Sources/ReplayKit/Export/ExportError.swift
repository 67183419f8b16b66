/// Why an export could not be written.
package enum ExportError: Error, CustomStringConvertible {
    case exists(String)
    case cannotWrite(String)

    package var description: String {
        switch self {
        case .exists(let path): "\(path) already exists (choose a new path, or an empty directory for a journal)"
        case .cannotWrite(let path): "\(path): cannot create the file"
        }
    }
}
