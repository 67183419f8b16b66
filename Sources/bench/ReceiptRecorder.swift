import Foundation
import Journal
import Locking
import SDK

/// The bench backend's receipt log (docs/RECONCILE.md): for each request the in-process
/// transport answers 200, one NDJSON line per `callId` it carries, written to a file as the
/// requests come (on whatever thread sends them), so `replay reconcile` has the other side of
/// the journal the benchmark writes.
final class ReceiptRecorder: Sendable {
    private struct State {
        var handle: FileHandle
        var pending: [UInt8] = []
        var lines = 0
    }

    private let state: Locked<State>
    /// Each project's region by API key.
    private let regions: [String: String]

    init(path: String, regions: [String: String]) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { throw BenchError("cannot write the receipt log \(path)") }
        state = Locked(State(handle: handle))
        self.regions = regions
    }

    /// Records the calls of `request`, received now.
    func record(_ request: TransportRequest) {
        func header(_ name: String) -> String? { request.headers.first { $0.name == name }?.value }
        let key = header("Api-Key") ?? ""
        let project = ProjectFingerprint(apiKey: key).hex
        let address = request.url.absoluteString
        var endpoint = address.range(of: "/api/").map { String(address[$0.upperBound...]) } ?? address
        if let query = endpoint.firstIndex(of: "?") { endpoint = String(endpoint[..<query]) }
        let now = JournalTime(microsecondsSince1970: Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down)))
        let idempotency = header("Idempotency-Key").map { "\"\($0)\"" } ?? "null"
        let prefix = #"{"project":""# + project + #"","region":""# + (regions[key] ?? "us") + #"","endpoint":""# + endpoint
            + #"","call_id":""#
        let suffix = #"","idempotency_key":"# + idempotency + #","user":null,"received_at":""# + now.description
            + #"","status":200,"duplicate":false}"# + "\n"
        var text = ""
        for id in Self.callIDs(in: request) { text += prefix + id + suffix }
        state.withLock { state in
            state.pending.append(contentsOf: text.utf8)
            state.lines += text.isEmpty ? 0 : text.utf8.lazy.filter { $0 == 0x0A }.count
            if state.pending.count >= 1 << 20 { Self.flush(&state) }
        }
    }

    /// Writes what is buffered and closes the file; returns how many lines it holds.
    func close() throws -> Int {
        try state.withLock { state in
            Self.flush(&state)
            try state.handle.close()
            return state.lines
        }
    }

    private static func flush(_ state: inout State) {
        state.handle.write(Data(state.pending))
        state.pending.removeAll(keepingCapacity: true)
    }

    /// The `callId`s a request carries: each `{"callId":"…"` of its body, or its query's.
    static func callIDs(in request: TransportRequest) -> [String] {
        if let query = request.url.query {
            for pair in query.split(separator: "&") where pair.hasPrefix("callId=") { return [String(pair.dropFirst(7))] }
        }
        guard let body = request.body else { return [] }
        let opening = Array(#"{"callId":""#.utf8)
        var ids: [String] = []
        body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var index = 0
            while index + opening.count + 32 <= bytes.count {
                if bytes[index] == UInt8(ascii: "{"), bytes[index..<index + opening.count].elementsEqual(opening) {
                    let start = index + opening.count
                    ids.append(String(decoding: bytes[start..<start + 32], as: UTF8.self))
                    index = start + 32
                } else {
                    index += 1
                }
            }
        }
        return ids
    }
}
