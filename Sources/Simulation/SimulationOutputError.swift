/// Why `simulate --out` or `--keep` could not write a story's journal.
package enum SimulationOutputError: Error, CustomStringConvertible {
    case exists(String)
    case unwritable(String)

    package var description: String {
        switch self {
        case .exists(let path): "\(path) already exists"
        case .unwritable(let path): "cannot write \(path)"
        }
    }
}
