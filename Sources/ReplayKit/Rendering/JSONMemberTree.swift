import SDK

/// A ``JSONMemberSink`` that collects the members as ``JSONValue``s, for output that is
/// assembled further (records with extra members, timelines, states).
struct JSONMemberTree: JSONMemberSink {
    private(set) var members: [(String, JSONValue)] = []

    /// The members `body` adds.
    static func members(_ body: (inout JSONMemberTree) -> Void) -> [(String, JSONValue)] {
        var tree = JSONMemberTree()
        body(&tree)
        return tree.members
    }

    /// The object of the members `body` adds.
    static func object(_ body: (inout JSONMemberTree) -> Void) -> JSONValue {
        .object(members(body))
    }

    mutating func add(_ key: JSONKey, _ value: JSONValue) {
        members.append((key.string, value))
    }

    mutating func add(_ key: JSONKey, string text: String) {
        members.append((key.string, .string(text)))
    }

    mutating func add(_ key: JSONKey, utf8 text: [UInt8]) {
        members.append((key.string, .string(String(decoding: text, as: UTF8.self))))
    }

    mutating func add(_ key: JSONKey, call: CallID) {
        members.append((key.string, FactJSON.callID(call)))
    }

    mutating func add(_ key: JSONKey, project: ProjectFingerprint) {
        members.append((key.string, FactJSON.project(project)))
    }

    mutating func addObject(_ key: JSONKey, _ body: (inout JSONMemberTree) -> Void) {
        members.append((key.string, Self.object(body)))
    }
}
