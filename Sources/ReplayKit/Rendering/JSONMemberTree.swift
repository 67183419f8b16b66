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

    mutating func add(_ key: String, _ value: JSONValue) {
        members.append((key, value))
    }

    mutating func add(_ key: String, string text: String) {
        members.append((key, .string(text)))
    }

    mutating func add(_ key: String, utf8 text: [UInt8]) {
        members.append((key, .string(String(decoding: text, as: UTF8.self))))
    }

    mutating func add(_ key: String, call: CallID) {
        members.append((key, FactJSON.callID(call)))
    }

    mutating func add(_ key: String, project: ProjectFingerprint) {
        members.append((key, FactJSON.project(project)))
    }

    mutating func addObject(_ key: String, _ body: (inout JSONMemberTree) -> Void) {
        members.append((key, Self.object(body)))
    }
}
