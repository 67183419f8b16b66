import Foundation
import Journal
import ReplayKit

/// The journals `replay serve` serves and its routes, a fixed table (anything else is 404;
/// the server serves no file by its path):
///
/// - `/`: to the first journal's page; `/journals`: the served journals, as JSON;
/// - `/j/N/`: journal N's page (the report's, with the scrubber, stepping and search);
/// - `/j/N/state?at=SEQ|TIME[&json=1]`: exactly what `replay state --at … [--json]` prints;
/// - `/j/N/moment?at=SEQ`: the record, state, diff, audit row and steps (``MomentAnswer``);
/// - `/j/N/search?q=TEXT[&from=SEQ]`: facts matching, page by page (``FactSearch``).
final class ServedJournals: Sendable {
    /// One served journal: its name on the page and its directory.
    struct Entry: Sendable {
        var name: String
        var path: String
    }

    let entries: [Entry]
    /// What the receipt logs say of each journal's calls (`--received`), in `entries`' order.
    let received: [ReceivedCalls]?
    /// Each journal's page and moment index, made once (by the first request that needs it,
    /// the others asking at the same time wait for it) and kept.
    let pages = SingleFlight<Int, String>()
    let indexes = SingleFlight<Int, MomentIndex>()

    init(paths: [String], received: [ReceivedCalls]? = nil) {
        self.received = received
        var taken: [String: Int] = [:]
        entries = paths.map { path in
            let base = (path as NSString).standardizingPath.split(separator: "/").last.map(String.init) ?? path
            taken[base, default: 0] += 1
            let count = taken[base] ?? 1
            return Entry(name: count == 1 ? base : "\(base) (\(count))", path: path)
        }
    }

    /// Answers one request.
    func answer(_ request: HTTPRequestHead) -> HTTPReply {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch Array(parts) {
        case [""]:
            return HTTPReply(status: 302, contentType: "text/plain; charset=utf-8", body: Array("/j/0/\n".utf8), headers: [("Location", "/j/0/")])
        case ["journals"]:
            return .json(.array(entries.enumerated().map { index, entry in
                .object([("journal", .integer(Int64(index))), ("name", .string(entry.name)), ("path", .string(entry.path))])
            }))
        case let route where route.count == 3 && route[0] == "j":
            guard let journal = Self.journalNumber(route[1]), journal < entries.count else { return Self.notServed }
            do {
                switch route[2] {
                case "": return .text(try page(journal), type: "text/html; charset=utf-8")
                case "state": return try state(journal, request.query)
                case "moment": return try moment(journal, request.query)
                case "search": return try search(journal, request.query)
                default: return Self.notServed
                }
            } catch let refusal as Refusal {
                return refusal.reply
            } catch {
                return .refusal(500, FleetExport.describe(error))
            }
        default:
            return Self.notServed
        }
    }

    static let notServed = HTTPReply.refusal(404, "not one of the served journals' pages or endpoints")

    /// A request that names something wrong: its reply.
    private struct Refusal: Error {
        var reply: HTTPReply
    }

    /// `0`, `1`, …: digits only, no sign, no leading zero.
    static func journalNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
              text == "0" || !text.hasPrefix("0") else { return nil }
        return Int(text)
    }

    private func moment(named query: [String: String]) throws -> Moment {
        guard let text = query["at"] else { throw Refusal(reply: .refusal(400, "at=SEQ|TIME is required")) }
        guard let moment = Moment.parse(text) else { throw Refusal(reply: .refusal(400, "at expects \(Moment.expectation), not '\(text)'")) }
        return moment
    }

    /// `replay state --at` run as the command line runs it, its standard output the body.
    private func state(_ journal: Int, _ query: [String: String]) throws -> HTTPReply {
        let command = StateCommand(path: entries[journal].path, moment: try moment(named: query), json: query["json"] == "1")
        var out = "", error = ""
        let console = Console(out: { out += $0 }, error: { error += $0 })
        do {
            _ = try command.run(console: console)
        } catch {
            return .refusal(404, "replay state: " + FleetExport.describe(error))
        }
        return .text(out, type: command.json ? "application/json" : "text/plain; charset=utf-8")
    }

    private func moment(_ journal: Int, _ query: [String: String]) throws -> HTTPReply {
        guard case .sequence(let sequence) = try moment(named: query) else {
            throw Refusal(reply: .refusal(400, "at expects a sequence number here"))
        }
        let console = Console(out: { _ in }, error: { _ in })
        let reader = try JournalSource.open(entries[journal].path, console: console, headers: .onDemand)
        let index = try momentIndex(journal)
        guard let first = index.first, let last = index.last, (first...last).contains(sequence) else {
            throw Refusal(reply: .refusal(404, "seq \(sequence) is not in this journal (\(index.first.map { "\($0)" } ?? "-") ... \(index.last.map { "\($0)" } ?? "-"))"))
        }
        let received = self.received?[journal]
        let value = try MomentAnswer.json(reader: reader, index: index, sequence: sequence,
                                          received: received.map { received in { received.json($0) ?? .null } }) { walk in
            var text = ""
            _ = try StateCommand.print(walk, moment: .sequence(sequence), json: false, console: Console(out: { text += $0 }, error: { _ in }))
            return text
        }
        return .json(value)
    }

    private func search(_ journal: Int, _ query: [String: String]) throws -> HTTPReply {
        let from = try query["from"].map { text in
            guard let value = UInt64(text) else { throw Refusal(reply: .refusal(400, "from expects a sequence number, not '\(text)'")) }
            return value
        }
        let reader = try JournalSource.open(entries[journal].path, console: Console(out: { _ in }, error: { _ in }), headers: .onDemand)
        return .json(try FactSearch.json(reader: reader, query: query["q"] ?? "", from: from))
    }

    /// The journal's page, made once (one pass, as `replay report`) and kept.
    private func page(_ journal: Int) throws -> String {
        try pages.value(for: journal) {
            let reader = try JournalSource.open(entries[journal].path, console: Console(out: { _ in }, error: { _ in }))
            let timeline = try TimelineBuilder.build(reader: reader)
            return ReportPage.html(data: ReportData.make(timeline, received: received?[journal]), title: entries[journal].name,
                                   served: ServedPage(journal: journal, journals: entries.map(\.name)))
        }
    }

    /// The journal's calls and switches by sequence number, made once and kept.
    func momentIndex(_ journal: Int) throws -> MomentIndex {
        try indexes.value(for: journal) {
            let reader = try JournalSource.open(entries[journal].path, console: Console(out: { _ in }, error: { _ in }))
            return try MomentIndex.build(reader)
        }
    }
}
