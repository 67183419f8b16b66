import Foundation
import Journal
import Locking
import ReplayKit

/// The journals `replay serve` serves and its routes, a fixed table (anything else is 404;
/// the server serves no file by its path):
///
/// - `/`: to the first journal's page; `/journals`: the served journals, as JSON;
/// - `/j/N/`: journal N's page (the report's, with the scrubber, stepping and search); a device
///   folder's entry is the device's page instead (``DevicePage``: a lane per process, linking to
///   each process's journal, served as entries of their own);
/// - `/j/N/progress`: how far the page's build has read (`{"ready", "read", "failed"}`);
/// - `/j/N/state?at=SEQ|TIME[&json=1]`: exactly what `replay state --at … [--json]` prints;
/// - `/j/N/moment?at=SEQ`: the record, state, diff, audit row and steps (``MomentAnswer``);
/// - `/j/N/search?q=TEXT[&from=SEQ]`: facts matching, page by page (``FactSearch``).
///
/// A journal's page takes one pass over the whole journal: a request for it waits at most
/// ``firstPaintPatience`` for the pass, then gets ``FirstPaintPage`` (the journal's shape from
/// its index files, and the pass's progress) while the pass goes on, on a thread of its own.
final class ServedJournals: Sendable {
    /// One served entry: a journal, or a device folder whose processes' journals are entries too.
    struct Entry: Sendable {
        /// Its name on the page.
        var name: String
        /// The journal's directory, or the device folder's.
        var path: String
        /// For a device folder: the folder and the entries of its processes' journals, in lane order.
        var device: (folder: DeviceFolder, lanes: [Int])?
    }

    let entries: [Entry]
    /// What the receipt logs say of each journal's calls (`--received`), in `entries`' order
    /// (nil for a device folder's entry).
    let received: [ReceivedCalls?]?
    /// Each entry's page and each journal's moment index, made once (by the first request that
    /// needs it, the others asking at the same time wait for it) and kept.
    let pages = SingleFlight<Int, String>()
    let indexes = SingleFlight<Int, MomentIndex>()
    /// How long a request for a page waits for its pass before the first paint is answered.
    let firstPaintPatience: DispatchTimeInterval
    /// The sequence number each entry's page pass has read up to.
    private let pageProgress: [AtomicWord]
    /// How many `progress?wait=MS` requests are waiting now (each holds one of the server's few
    /// workers): past ``progressWaitersAtMost``, one is answered at once.
    private let progressWaiters = Locked(0)
    /// How a page's pass meets damage (`--salvage`: it goes on at the next segment, the page
    /// naming each loss); a moment is always read strictly (a state folded past a lost record
    /// would be wrong).
    let pageReadMode: JournalReader.ReadMode

    /// The entries `paths` name, in order: a device folder (``DeviceFolder``) is its own entry
    /// followed by each process's journal; a folder of journals is its journals; a journal is
    /// itself. `received`, when given, holds what the receipt logs say of each journal (device
    /// folders' entries excluded), in that order.
    init(paths: [String], received: [ReceivedCalls]? = nil, firstPaintPatience: DispatchTimeInterval = .seconds(1),
         pageReadMode: JournalReader.ReadMode = .strict) {
        self.firstPaintPatience = firstPaintPatience
        self.pageReadMode = pageReadMode
        var taken: [String: Int] = [:]
        func unique(_ base: String) -> String {
            taken[base, default: 0] += 1
            let count = taken[base] ?? 1
            return count == 1 ? base : "\(base) (\(count))"
        }
        func baseName(_ path: String) -> String {
            (path as NSString).standardizingPath.split(separator: "/").last.map(String.init) ?? path
        }
        var entries: [Entry] = []
        for path in paths {
            if let folder = DeviceFolder.open(path) {
                let name = unique(baseName(path))
                let first = entries.count + 1
                entries.append(Entry(name: name, path: path, device: (folder, Array(first..<first + folder.lanes.count))))
                for lane in folder.lanes { entries.append(Entry(name: unique("\(name) (\(lane.role))"), path: lane.path)) }
            } else {
                for journal in FleetExport.journalPaths([path]) { entries.append(Entry(name: unique(baseName(journal)), path: journal)) }
            }
        }
        self.entries = entries
        pageProgress = entries.map { _ in AtomicWord() }
        var logs = received?.makeIterator()
        self.received = received.map { _ in entries.map { $0.device == nil ? logs?.next() : nil } }
    }

    /// The journals served, in order (every entry but the device folders').
    var journalPaths: [String] { entries.filter { $0.device == nil }.map(\.path) }

    /// Answers one request.
    func answer(_ request: HTTPRequestHead) -> HTTPReply {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch Array(parts) {
        case [""]:
            return HTTPReply(status: 302, contentType: "text/plain; charset=utf-8", body: Array("/j/0/\n".utf8), headers: [("Location", "/j/0/")])
        case ["journals"]:
            return .json(.array(entries.enumerated().map { index, entry in
                var members: [(String, JSONValue)] = [("journal", .integer(Int64(index))), ("name", .string(entry.name)), ("path", .string(entry.path))]
                if let device = entry.device {
                    members.append(("processes", .array(zip(device.folder.lanes, device.lanes).map { lane, entry in
                        .object([("process", .string(lane.role)), ("journal", .integer(Int64(entry)))])
                    })))
                }
                return .object(members)
            }))
        case let route where route.count == 3 && route[0] == "j":
            guard let journal = Self.journalNumber(route[1]), journal < entries.count else { return Self.notServed }
            do {
                if route[2] != "", let device = entries[journal].device {
                    let processes = zip(device.folder.lanes, device.lanes).map { "/j/\($1)/ (\($0.role))" }.joined(separator: ", ")
                    return .refusal(404, "/j/\(journal)/ is a device folder's page; ask one of its processes' journals: \(processes)")
                }
                switch route[2] {
                case "": return .text(try page(journal), type: "text/html; charset=utf-8")
                case "progress": return progress(journal, request.query)
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
        let received = self.received?[journal] ?? nil
        do {
            let value = try MomentAnswer.json(reader: reader, index: index, sequence: sequence,
                                              received: received.map { received in { received.json($0) ?? .null } }) { walk in
                var text = ""
                _ = try StateCommand.print(walk, moment: .sequence(sequence), json: false, console: Console(out: { text += $0 }, error: { _ in }))
                return text
            }
            return .json(value)
        } catch JournalError.corrupted(let damage) {
            // A moment inside the damage (or past it in its segment): refused, as `state --at` refuses it.
            return .refusal(404, "seq \(sequence) cannot be read: stopped at \(damage) (\(ReplayCommandLine.verifyAdvice))")
        }
    }

    private func search(_ journal: Int, _ query: [String: String]) throws -> HTTPReply {
        let from = try query["from"].map { text in
            guard let value = UInt64(text) else { throw Refusal(reply: .refusal(400, "from expects a sequence number, not '\(text)'")) }
            return value
        }
        let reader = try JournalSource.open(entries[journal].path, console: Console(out: { _ in }, error: { _ in }), headers: .onDemand)
        return .json(try FactSearch.json(reader: reader, query: query["q"] ?? "", from: from))
    }

    /// The entry's page, made once (one pass, as `replay report`) and kept; while the pass runs
    /// past ``firstPaintPatience``, the first paint. Asking for a journal's page opens its
    /// moment index too (its first record and last segment, ``MomentIndex``).
    private func page(_ journal: Int) throws -> String {
        if let device = entries[journal].device {
            return try pages.value(for: journal) {
                let merge = try DeviceMerge(folder: device.folder) { try JournalSource.open($0, console: Console(out: { _ in }, error: { _ in })) }
                return try DevicePage.html(merge, title: entries[journal].name, pages: device.lanes.map { "/j/\($0)/" }).page
            }
        }
        _ = try? indexes.value(for: journal, waitingAtMost: .nanoseconds(0)) { try self.buildMomentIndex(journal) }
        let served = ServedPage(journal: journal, journals: entries.map(\.name))
        if let page = try pages.value(for: journal, waitingAtMost: firstPaintPatience, make: { try self.buildPage(journal, served: served) }) {
            return page
        }
        let reader = try JournalSource.open(entries[journal].path, console: Console(out: { _ in }, error: { _ in }), headers: .onDemand)
        return try FirstPaintPage.html(reader: reader, title: entries[journal].name, served: served)
    }

    private func buildPage(_ journal: Int, served: ServedPage) throws -> String {
        let reader = try JournalSource.open(entries[journal].path, console: Console(out: { _ in }, error: { _ in }), readMode: pageReadMode)
        let progress = pageProgress[journal]
        let page = try {
            let receipts = received?[journal] ?? nil
            let timeline: Timeline
            do {
                // No state is embedded: the served page asks the server for any moment's.
                timeline = try TimelineBuilder.build(reader: reader, sampler: .none, keeping: .page(receipts), onProgress: { progress.store($0) })
            } catch JournalError.corrupted(let damage) where pageReadMode == .strict {
                // Damage stops the pass the same way every time: the page says what goes on past it.
                throw PageStoppedAtDamage(damage: damage)
            }
            return ReportPage.html(data: try ReportData.make(timeline, received: receipts), title: entries[journal].name, served: served)
        }()
        // The pass's calls are gone now; the server keeps the page.
        FreedMemory.giveBack()
        return page
    }

    /// How far the page's pass has read, as JSON: `ready` once the page is made, `read` the last
    /// sequence number read, `failed` what stopped the last attempt. With `wait=MS` (at most
    /// ``progressPatienceMilliseconds``), the answer waits for the page while it is being made:
    /// the first paint asks again at once, and reloads as soon as the page is made.
    private func progress(_ journal: Int, _ query: [String: String]) -> HTTPReply {
        let asked = query["wait"].flatMap(Int.init).map { min(max($0, 0), Self.progressPatienceMilliseconds) } ?? 0
        let waits = asked > 0 && progressWaiters.withLock { waiters in
            guard waiters < Self.progressWaitersAtMost else { return false }
            waiters += 1
            return true
        }
        defer { if waits { progressWaiters.withLock { $0 -= 1 } } }
        let state = pages.state(of: journal, waitingAtMost: .milliseconds(waits ? asked : 0))
        var failed: String?
        if case .notMade(let failure) = state { failed = failure }
        let ready = if case .made = state { true } else { false }
        return .json(.object([("ready", .bool(ready)), ("read", .unsigned(pageProgress[journal].load())),
                              ("failed", .optional(failed, JSONValue.string))]))
    }

    /// The longest a `progress?wait=MS` request waits for the page (it holds a worker meanwhile).
    static let progressPatienceMilliseconds = 1_000
    /// How many `progress?wait=MS` requests wait at once, at most (a quarter of `serve`'s eight
    /// workers): a few tabs opening journals never hold the workers a moment needs.
    static let progressWaitersAtMost = 2

    /// The journal's calls and switches by sequence number: opened once and kept, read segment
    /// by segment as moments are asked for.
    func momentIndex(_ journal: Int) throws -> MomentIndex {
        try indexes.value(for: journal) { try buildMomentIndex(journal) }
    }

    private func buildMomentIndex(_ journal: Int) throws -> MomentIndex {
        try MomentIndex(try JournalSource.open(entries[journal].path, console: Console(out: { _ in }, error: { _ in })))
    }
}

/// A page's pass stopped at damage, with the option that goes on past it (what the page shows).
private struct PageStoppedAtDamage: Error, CustomStringConvertible {
    let damage: Damage

    var description: String {
        "stopped at \(damage); `replay serve --salvage` goes on past it"
    }
}
