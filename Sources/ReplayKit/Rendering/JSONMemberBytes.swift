import SDK

/// A ``JSONMemberSink`` that writes each member as it is added, as `,"key":value` after the
/// members already written (the first member of a nested object without the comma), into the
/// bytes it holds: a row is written without a tree being built for it.
///
/// Top-level keys can be renamed on the way (an NDJSON row's fleet columns reserve some names);
/// keys of nested objects are written as given.
struct JSONMemberBytes: ~Copyable, JSONMemberSink {
    private var output: ScratchBytes
    private var depth = 0
    private var needsComma: Bool
    private let renameTopLevel: (UnsafeBufferPointer<UInt8>) -> String?

    /// Continues `output`, whose object is open: with `afterMembers`, a comma comes before the
    /// first member added. `renameTopLevel` gives the key to write in place of a top-level key
    /// (nil: the key itself), given its UTF-8 bytes.
    init(continuing output: consuming ScratchBytes, afterMembers: Bool, renameTopLevel: @escaping (UnsafeBufferPointer<UInt8>) -> String? = { _ in nil }) {
        self.output = output
        self.needsComma = afterMembers
        self.renameTopLevel = renameTopLevel
    }

    /// The bytes, with every member added.
    consuming func finish() -> ScratchBytes {
        output
    }

    private mutating func key(_ key: JSONKey) {
        if needsComma { output.append(UInt8(ascii: ",")) }
        needsComma = true
        key.withUTF8 { bytes in
            if depth == 0, let renamed = renameTopLevel(bytes) {
                JSONValue.writeString(renamed, to: &output)
            } else {
                JSONValue.writeString(wellFormedUTF8: bytes, to: &output)
            }
        }
        output.append(UInt8(ascii: ":"))
    }

    mutating func add(_ key: JSONKey, _ value: JSONValue) {
        self.key(key)
        value.write(to: &output)
    }

    mutating func add(_ key: JSONKey, string text: String) {
        self.key(key)
        JSONValue.writeString(text, to: &output)
    }

    mutating func add(_ key: JSONKey, utf8 text: [UInt8]) {
        self.key(key)
        JSONValue.writeString(utf8: text, to: &output)
    }

    mutating func add(_ key: JSONKey, call: CallID) {
        self.key(key)
        FactJSON.writeCallID(call, to: &output)
    }

    mutating func add(_ key: JSONKey, project: ProjectFingerprint) {
        self.key(key)
        output.append(UInt8(ascii: "\""))
        project.writeHex(to: &output)
        output.append(UInt8(ascii: "\""))
    }

    mutating func addObject(_ key: JSONKey, _ members: (inout JSONMemberBytes) -> Void) {
        self.key(key)
        output.append(UInt8(ascii: "{"))
        depth += 1
        needsComma = false
        members(&self)
        depth -= 1
        needsComma = true
        output.append(UInt8(ascii: "}"))
    }
}
