import SDK

/// The words the fleet columns take from an outcome as ``FactJSON`` writes it: its `status`,
/// and the kind of its discard (`reason.discard`) or of its failure (`failure.failure`). A
/// ``JSONMemberSink`` that keeps those and nothing else, so no tree is built for a row.
struct OutcomeColumnWords: JSONMemberSink {
    private(set) var status: String?
    private(set) var reason: String?
    /// The top-level key of the object whose members are being added, if any.
    private var object: JSONKey?

    init(_ outcome: CallOutcome) {
        FactJSON.write(outcome, into: &self)
    }

    init(_ outcome: TaskOutcome) {
        FactJSON.write(outcome, into: &self)
    }

    /// Words read some other way (a teardown step's outcome).
    init(status: String?, reason: String?) {
        self.status = status
        self.reason = reason
    }

    mutating func add(_ key: JSONKey, _ value: JSONValue) {
        if case .string(let text) = value { add(key, string: text) }
    }

    mutating func add(_ key: JSONKey, string text: String) {
        if let object {
            if object == "reason" && key == "discard" || object == "failure" && key == "failure" { reason = reason ?? text }
        } else if key == "status" {
            status = text
        }
    }

    mutating func add(_ key: JSONKey, utf8 text: [UInt8]) {}
    mutating func add(_ key: JSONKey, call: CallID) {}
    mutating func add(_ key: JSONKey, project: ProjectFingerprint) {}

    mutating func addObject(_ key: JSONKey, _ members: (inout OutcomeColumnWords) -> Void) {
        // Objects deeper than the top level's hold none of the words.
        guard object == nil else { return }
        object = key
        members(&self)
        object = nil
    }
}
