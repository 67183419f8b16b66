import Foundation
import ReplayKit
import SDK

/// A `--call` argument (`replay audit`; `timeline` takes ids only): the calls of one name
/// (`track`), or one call by its id, in any of the forms a support engineer is handed: the eight hex digits `audit` and
/// `timeline` show (`0000000c`), the call's UUID (in the `Idempotency-Key` a backend logs, after
/// `-call-`), or its wire id (`callId`, 32 hex digits: a receipt log's `call_id`).
enum CallSelector: Hashable {
    case name(PublicCall.Name)
    case shortID(String)
    case id(UUID)
    case wireID(WireCallID)

    static let expectation = "a public call's name such as track or setEmail, or one call's id "
        + "(the 8 hex digits audit shows, its UUID, or its 32-hex wire id)"

    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        if let name = PublicCall.Name(rawValue: trimmed) {
            self = .name(name)
        } else if lowered.utf8.count == 8, lowered.allSatisfy(\.isHexDigit) {
            self = .shortID(lowered)
        } else if let uuid = UUID(uuidString: trimmed) {
            self = .id(uuid)
        } else if lowered.utf8.count == WireCallID.hexCount, let wire = WireCallID(hex: lowered) {
            self = .wireID(wire)
        } else {
            return nil
        }
    }

    /// The selector as `--call` takes it (an id lowercased).
    var text: String {
        switch self {
        case .name(let name): name.rawValue
        case .shortID(let digits): digits
        case .id(let uuid): uuid.uuidString.lowercased()
        case .wireID(let wire): wire.description
        }
    }

    /// Whether the selector names one call rather than a name's calls.
    var namesOneCall: Bool {
        if case .name = self { false } else { true }
    }

    /// Whether `row` is selected; `stream` is the id of the journal it is from (a wire id is
    /// derived from it: none matches without one).
    func matches(_ row: AuditRow, stream: UUID?) -> Bool {
        if case .name(let name) = self { return row.name == name }
        return matches(call: row.call, stream: stream)
    }

    /// Whether the call `call` is the one this selector's id names (a name selects by the row).
    func matches(call: CallID, stream: UUID?) -> Bool {
        switch self {
        case .name: false
        case .shortID(let digits): call.description == digits
        case .id(let uuid): call.uuid == uuid
        case .wireID(let wire): stream.map { WireCallID(stream: $0, call: call) == wire } ?? false
        }
    }
}
