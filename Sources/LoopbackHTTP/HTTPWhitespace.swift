import Foundation

extension CharacterSet {
    /// HTTP's optional whitespace: space and horizontal tab.
    package static let httpWhitespace = CharacterSet(charactersIn: " \t")
}
