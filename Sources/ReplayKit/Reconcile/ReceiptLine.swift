import Foundation
import Journal
import SDK

/// One line of a backend's receipt log (docs/RECONCILE.md): one call a project received, as
/// the backend saw it. The log is NDJSON, one object per line; members it does not know are
/// ignored, so a log may carry more.
package struct ReceiptLine: Sendable, Equatable {
    /// The project the request's API key belongs to: its fingerprint, as journals name it.
    package var project: ProjectFingerprint
    /// The data region whose endpoint received it, e.g. `us`, `eu`.
    package var region: String
    /// The API path after the endpoint, e.g. `events/trackBulk`.
    package var endpoint: String
    /// The call's id on the wire (`callId`, ``WireCallID``).
    package var callID: WireCallID
    /// The request's `Idempotency-Key`, if the backend kept it: it names the journal stream
    /// the call came from (`<stream>-…`).
    package var idempotencyKey: String?
    /// The user as the request named them (`email:…` or `userId:…`), if it named one.
    package var user: String?
    /// When the backend received it, by the backend's clock.
    package var receivedAt: JournalTime
    /// The HTTP status the backend answered; nil when it answered none (a dropped connection).
    package var status: Int?
    /// Whether the backend took it as a re-send of a call it had already received (and did not
    /// store it again).
    package var duplicate: Bool

    package init(project: ProjectFingerprint, region: String, endpoint: String, callID: WireCallID, idempotencyKey: String?,
                 user: String?, receivedAt: JournalTime, status: Int?, duplicate: Bool) {
        self.project = project
        self.region = region
        self.endpoint = endpoint
        self.callID = callID
        self.idempotencyKey = idempotencyKey
        self.user = user
        self.receivedAt = receivedAt
        self.status = status
        self.duplicate = duplicate
    }

    /// The most bytes a line may take (its newline not counted).
    package static let maxLineBytes = 64 << 10

    /// Whether the project took the call: it answered 2xx.
    package var isAccepted: Bool { status.map { (200..<300).contains($0) } ?? false }

    /// The journal stream the idempotency key names (its first 36 characters, a UUID), if any.
    package var stream: UUID? {
        guard let key = idempotencyKey, key.utf8.count >= 36 else { return nil }
        return UUID(uuidString: String(key.prefix(36)))
    }

    /// The line's JSON object, members in the schema's order, no newline.
    package var json: String {
        JSONValue.object([
            ("project", .string(project.hex)),
            ("region", .string(region)),
            ("endpoint", .string(endpoint)),
            ("call_id", .string(callID.hex)),
            ("idempotency_key", JSONValue.optional(idempotencyKey, JSONValue.string)),
            ("user", JSONValue.optional(user, JSONValue.string)),
            ("received_at", .string(receivedAt.description)),
            ("status", status.map { .integer(Int64($0)) } ?? .null),
            ("duplicate", .bool(duplicate)),
        ]).serialized()
    }

    /// Parses one line (without its newline). Throws naming the member that is missing or
    /// wrong; never traps, whatever the bytes.
    package init(parsing bytes: [UInt8]) throws(ReceiptLineError) {
        var scanner = ReceiptLineScanner()
        self = try bytes.withUnsafeBufferPointer { buffer throws(ReceiptLineError) in try Self(parsing: buffer, scanner: &scanner) }
    }

    /// Parses one line read in place by `scanner` (the plain form a backend writes), else by
    /// the general JSON path, which also names what is wrong.
    init(parsing bytes: UnsafeBufferPointer<UInt8>, scanner: inout ReceiptLineScanner) throws(ReceiptLineError) {
        guard bytes.count <= Self.maxLineBytes else {
            throw ReceiptLineError("the line is \(bytes.count) bytes, more than \(Self.maxLineBytes)")
        }
        if let line = scanner.scan(bytes) {
            self = line
            return
        }
        try self.init(parsingJSON: Array(bytes))
    }

    /// Parses one line (without its newline) through the general JSON parser: every line the
    /// schema allows, escapes and all, and the reason for any it does not. What
    /// ``init(parsing:)`` falls back to; the fuzz target compares the two.
    package init(parsingJSON bytes: [UInt8]) throws(ReceiptLineError) {
        guard bytes.count <= Self.maxLineBytes else {
            throw ReceiptLineError("the line is \(bytes.count) bytes, more than \(Self.maxLineBytes)")
        }
        guard let value = JSONParser.parse(bytes), case .object = value else {
            throw ReceiptLineError("not a JSON object")
        }
        func string(_ key: String) throws(ReceiptLineError) -> String {
            guard let member = value[key] else { throw ReceiptLineError("no \"\(key)\"") }
            guard let text = member.stringValue else { throw ReceiptLineError("\"\(key)\" is not a string") }
            return text
        }
        func optionalString(_ key: String) throws(ReceiptLineError) -> String? {
            switch value[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw ReceiptLineError("\"\(key)\" is neither a string nor null")
            }
        }
        let projectText = try string("project")
        guard let project = ProjectFingerprint(hex: projectText) else {
            throw ReceiptLineError("\"project\" is not a project fingerprint (16 lowercase hex digits): \"\(Self.excerpt(projectText))\"")
        }
        let callText = try string("call_id")
        guard let callID = WireCallID(hex: callText) else {
            throw ReceiptLineError("\"call_id\" is not a call id (32 lowercase hex digits): \"\(Self.excerpt(callText))\"")
        }
        let timeText = try string("received_at")
        guard let receivedAt = ISOTime.parse(timeText) else {
            throw ReceiptLineError("\"received_at\" is not an ISO 8601 time such as 2026-12-06T08:00:00.000000Z: \"\(Self.excerpt(timeText))\"")
        }
        var status: Int?
        switch value["status"] {
        case nil, .null?: status = nil
        case .integer(let number)? where (100...999).contains(number): status = Int(number)
        case .unsigned(let number)? where (100...999).contains(number): status = Int(number)
        default: throw ReceiptLineError("\"status\" is neither an HTTP status (100…999) nor null")
        }
        var duplicate = false
        switch value["duplicate"] {
        case nil, .null?: duplicate = false
        case .bool(let flag)?: duplicate = flag
        default: throw ReceiptLineError("\"duplicate\" is not true or false")
        }
        self.init(project: project, region: try string("region"), endpoint: try string("endpoint"), callID: callID,
                  idempotencyKey: try optionalString("idempotency_key"), user: try optionalString("user"),
                  receivedAt: receivedAt, status: status, duplicate: duplicate)
    }

    /// At most 40 characters of `text`, for a message.
    private static func excerpt(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}

/// Why a receipt-log line could not be read.
package struct ReceiptLineError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
