import Foundation

extension CharacterSet {
    /// HTTP's optional whitespace: space and horizontal tab.
    static let httpWhitespace = CharacterSet(charactersIn: " \t")
}
