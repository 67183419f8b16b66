/// A moment a command was given that the journal does not cover.
enum MomentError: Error, CustomStringConvertible {
    case beforeJournal(Moment, first: String)

    var description: String {
        switch self {
        case .beforeJournal(let moment, let first):
            "\(moment) is before the journal's first retained record (\(first))"
        }
    }
}
