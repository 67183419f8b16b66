/// The value of one argument of a public call, in the shape its ``ArgumentKind`` gives it.
/// `nil` payloads are absent optional arguments.
package enum ArgumentValue: Sendable, Hashable {
    /// Every text kind (email, user id, push token, identifier, URL, link, reason).
    case text(String?)
    case count(Int)
    case amount(Double)
    case flag(Bool)
    case dataFields([String: DataValue]?)
    case items([CommerceItem])
    indirect case project(ProjectRef)
    indirect case pushOpen(PushOpen)
    indirect case attribution(AttributionInfo?)
    case callName(PublicCall.Name)

    /// The text, for text kinds; nil otherwise or when absent.
    package var text: String? {
        if case .text(let value) = self { value } else { nil }
    }
}
