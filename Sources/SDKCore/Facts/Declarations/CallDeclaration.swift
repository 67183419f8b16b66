/// A public call's journal tag, arguments and request, declared once; its family and how a
/// switch treats it are declared with its name (``PublicCall/Name``). The call codec,
/// ``CallValidation``, the ``Redactor``, `replay`'s renderers and the fuzzers' samples are derived
/// from it; a call's own behaviour is its family's (`SDKState+<Family>Calls.swift`). Every
/// declaration is in ``PublicCall``'s file.
///
/// A class: each call's declaration is one shared, immutable instance, handed out without
/// copying its arguments.
package final class CallDeclaration: Sendable {
    package let name: PublicCall.Name
    /// The variant tag of the call in a journal record: part of the format, never reused.
    package let tag: UInt64
    /// In the order the journal writes them and validation checks them.
    package let arguments: [ArgumentDeclaration]
    /// Everything the call carries, as JSON, must fit ``CallLimits/callBytes`` (calls whose
    /// many parts could add up past it).
    package let limitsTotalBytes: Bool
    /// The request the call becomes.
    package let request: CallRequest

    package init(_ name: PublicCall.Name, tag: UInt64, arguments: [ArgumentDeclaration] = [], limitsTotalBytes: Bool = false,
                 request: CallRequest = .none) {
        self.name = name
        self.tag = tag
        self.arguments = arguments
        self.limitsTotalBytes = limitsTotalBytes
        self.request = request
    }
}
