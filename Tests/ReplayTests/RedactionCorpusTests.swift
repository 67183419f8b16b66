import Foundation
import Journal
import Locking
import Testing
@testable import SDK
@testable import SDKCore

/// Redaction measured on a corpus (``RedactionCorpus``): 2,400 error messages, URLs and data
/// fields, each with one planted item of personal data (names, emails plain and percent-encoded,
/// phone numbers national and international, card numbers, dates, IP addresses, street
/// addresses, JWTs, API tokens, account ids). Every planted item must become tokens on every
/// redacting path: the redactor itself, `replay export --redact` as NDJSON and as a journal, the
/// report made from the copy, and `exportDiagnostics`. What the templates say (the SDK's and the
/// platform's words) is counted as it stays readable.
@Suite("redaction corpus", .timeLimit(.minutes(5)))
struct RedactionCorpusTests {
    static let corpus = RedactionCorpus()

    /// The runs of letters and the runs of digits of `text` once its tokens are taken out and
    /// it is percent-decoded: what a reader of the output can find.
    static func readableRuns(of text: String) -> Set<String> {
        let untokened = text.replacing(/(email|user|token|data|body|text)(:|%3A)[0-9a-f]{12}/) { _ in " " }
        let decoded = PercentDecoding.decode(untokened[...], plusIsSpace: false)
        var runs = Set<String>()
        var current = ""
        for character in decoded {
            if let last = current.last, !((last.isLetter && character.isLetter) || (last.isNumber && character.isNumber)) {
                runs.insert(current)
                current = ""
            }
            if character.isLetter || character.isNumber { current.append(character) } else if !current.isEmpty {
                runs.insert(current)
                current = ""
            }
        }
        if !current.isEmpty { runs.insert(current) }
        return runs
    }

    /// The output of the redactor for one entry.
    static func redacted(_ entry: RedactionCorpus.Entry, by redactor: Redactor) -> String {
        switch entry.place {
        case .text: redactor.redact(text: entry.value)
        case .url: redactor.redact(url: entry.value)
        case .dataKey: redactor.redact(data: [entry.value: .string("x")]).keys.joined(separator: " ")
        case .dataValue: DataValue.object(redactor.redact(data: ["field": .string(entry.value)])).json()
        }
    }

    @Test("the redactor: 100% of the planted items become tokens; the templates' words stay readable")
    func redactor() {
        let redactor = Redactor(hash: KeyedHash(key: Array("corpus".utf8)))
        var leaks: [String] = []
        var planted: [RedactionCorpus.Kind: Int] = [:]
        var templateWords = 0, readableWords = 0
        for entry in Self.corpus.entries {
            let output = Self.redacted(entry, by: redactor)
            let runs = Self.readableRuns(of: output)
            planted[entry.kind, default: 0] += 1
            let leaked = entry.secrets(minimum: 2).filter(runs.contains)
            if !leaked.isEmpty { leaks.append("#\(entry.index) \(entry.kind) in \(entry.place): \(entry.value) → \(output) (\(leaked))") }
            guard entry.place == .text else { continue }
            let template = Self.readableRuns(of: entry.templateWords.joined(separator: " "))
            templateWords += template.count
            readableWords += template.filter(runs.contains).count
            for phrase in RedactionCorpus.mustStay where entry.value.contains(phrase) {
                #expect(output.contains(phrase), "\(phrase) is gone from \(output)")
            }
        }
        #expect(leaks.isEmpty, "\(leaks.count) of \(Self.corpus.entries.count) planted items leak:\n\(leaks.prefix(20).joined(separator: "\n"))")
        #expect(planted.count == RedactionCorpus.Kind.allCases.count && Self.corpus.entries.count >= 2_000)
        // A support engineer reads the templates: nearly every word of theirs stays.
        #expect(readableWords * 100 >= templateWords * 98, "only \(readableWords) of \(templateWords) template words stay readable")
        print("redaction corpus: \(Self.corpus.entries.count) planted items (\(planted.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))), \(Self.corpus.entries.count - leaks.count) became tokens; \(readableWords) of \(templateWords) distinct template words per message stayed readable")
    }

    /// The fact that carries a text entry, by its index: the places the world's words reach.
    static func fact(text: String, _ index: Int) -> Fact {
        let call = CallID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llx", index + 1))!)
        let project = ProjectFingerprint(apiKey: "corpus")
        switch index % 11 {
        case 0: return .transportCompleted(TransportCompletion(task: TaskID(1), attempt: 1, outcome: .response(status: 503, code: "BadParams",
                                                                                                              messageIDs: [], message: text)))
        case 1: return .transportCompleted(TransportCompletion(task: TaskID(1), attempt: 1, outcome: .networkError(text)))
        case 2: return .retryScheduled(task: TaskID(1), attempt: 2, due: JournalTime(microsecondsSince1970: 0), reason: .noResponse(text))
        case 3: return .moduleHookCompleted(ModuleHookCompletion(hook: 1, failure: text))
        case 4: return .teardownStepFinished(switch: SwitchID(1), step: .releaseInstance, outcome: .warning(text), elapsedMicroseconds: 5)
        case 5: return .switchLanded(switch: SwitchID(1), project: project, result: .switchedWithWarnings, reasons: [text])
        case 6: return .callResolved(call: call, outcome: .failed(.httpStatus(400, code: "BadParams", message: text)))
        case 7: return .callRejected(call: call, reason: text)
        case 8: return .moduleHookFinished(hook: 1, problem: text)
        case 9: return .authRefreshFinished(project: project, request: 1, failure: text)
        default: return .switchCancelled(switch: SwitchID(1), reason: text)
        }
    }

    /// The facts that carry `entry` (their call ids made from its index: random ids would hold
    /// digits an item may share).
    static func facts(for entry: RedactionCorpus.Entry) -> [Fact] {
        let call = CallID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llx", entry.index + 1))!)
        let received = { (call: PublicCall) in Fact.callReceived(ReceivedCall(id: call.id(entry.index), caller: 1, call: call)) }
        switch entry.place {
        case .text:
            return [fact(text: entry.value, entry.index)]
        case .url:
            // A link still resolving stays in the state: the snapshots after it hold its URL.
            return [.linkResolutionStarted(job: UInt64(entry.index), call: call, url: entry.value, project: ProjectFingerprint(apiKey: "corpus"),
                                           generation: 0),
                    .linkResolved(LinkResolution(job: UInt64(entry.index), destination: entry.value, attribution: nil, failure: nil)),
                    received(.handleUniversalLink(url: entry.value)), received(.inAppClick(messageID: "m1", url: entry.value))]
        case .dataKey:
            return [received(.track(event: "corpus", dataFields: [entry.value: .string("x"), "nested": .object([entry.value: 1])]))]
        case .dataValue:
            return [received(.track(event: "corpus", dataFields: ["field": .string(entry.value)]))]
        }
    }

    /// Writes the corpus as a journal of six segments, each opening with a snapshot of the state
    /// folded so far (link jobs included: URL entries finish resolving only at the end).
    static func writeJournal(at path: String) throws {
        var options = JournalOptions()
        options.retainedBytes = nil
        options.rotation = .onRequest
        options.segmentBytes = 1024
        options.groupCommit = GroupCommit(maxRecords: 8, maxDelay: nil, synchronizesEachGroup: false)
        let state = Locked(SDKState())
        let writer = try JournalWriter(directory: path, options: options, snapshot: { _ in state.withLock { StateCodec.encode($0) } })
        var time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        for entry in corpus.entries {
            if entry.index % 400 == 399 {
                let snapshot = state.withLock { StateCodec.encode($0) }
                _ = try writer.rotateIfNeeded(time: time, snapshot: { _ in snapshot })
            }
            for fact in facts(for: entry) where !(entry.place == .url && { if case .linkResolved = fact { true } else { false } }()) {
                var bundle = RecordBundle()
                FactCodec.append(fact, to: &bundle)
                _ = try writer.appendBundle(bundle, timestamp: time)
                state.withLock { $0.evolve(fact, at: time) }
                time = time.advanced(byMilliseconds: 1)
            }
        }
        // The links resolve at the end: their destinations are facts too.
        for entry in corpus.entries where entry.place == .url {
            for fact in facts(for: entry) {
                guard case .linkResolved = fact else { continue }
                var bundle = RecordBundle()
                FactCodec.append(fact, to: &bundle)
                _ = try writer.appendBundle(bundle, timestamp: time)
                time = time.advanced(byMilliseconds: 1)
            }
        }
        try writer.sync()
        try writer.close()
    }

    /// What a reader finds in a journal's records: their payloads' text.
    static func payloadText(of directory: String) throws -> String {
        var text = ""
        let cursor = try JournalReader(directory: directory).records()
        while let record = try cursor.next() { text += String(decoding: record.payload, as: UTF8.self) + "\n" }
        return text
    }

    @Test("every redacting path: NDJSON, the journal copy, the report from the copy and exportDiagnostics hold no planted item")
    func everyPath() throws {
        let root = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let journal = root + "/journal"
        try Self.writeJournal(at: journal)
        let plain = Self.readableRuns(of: try Self.payloadText(of: journal))
        // What every output holds besides the planted items: the templates' words, hosts, keys.
        let structure = Self.readableRuns(of: RedactionCorpus.templates.joined(separator: " ")
                                            + " shop example com links 8443 api org profile edit name ref mail offer users unsub email p t"
                                            + " news utm source v2 field nested corpus sk live ghp xoxb AKIA cust acct user Rue de la"
                                            + " " + RedactionCorpus.streetKinds.joined(separator: " "))
        let secrets = Self.corpus.entries.flatMap { entry in
            entry.secrets(minimum: 4).filter { piece in
                !structure.contains(piece) && (piece.first?.isNumber == false || (piece.count >= 5 && piece.contains { $0 != "0" }))
            }.map { (entry, $0) }
        }
        // Snapshots after the links began resolving hold their URLs (the state's `linkJobs`).
        var linkJobsInSnapshots = 0
        let snapshots = try JournalReader(directory: journal).records()
        while let record = try snapshots.next() {
            if record.isSnapshot { linkJobsInSnapshots += try StateCodec.decode(record.payload).linkJobs.count }
        }
        #expect(linkJobsInSnapshots > 100)
        let missing = secrets.filter { !plain.contains($0.1) }
        #expect(missing.isEmpty, "the plain journal lacks planted items: the test would prove nothing: \(missing.prefix(5).map(\.1))")

        var outputs: [(String, String)] = []
        let ndjson = root + "/rows.ndjson"
        let exported = ReplayHarness.run(["export", "--redact", "--format", "ndjson", "-o", ndjson, journal])
        #expect(exported.status == 0, "\(exported.error)")
        outputs.append(("ndjson", try String(contentsOfFile: ndjson, encoding: .utf8)))
        let copy = root + "/copy"
        let copied = ReplayHarness.run(["export", "--redact", "-o", copy, journal])
        #expect(copied.status == 0, "\(copied.error)")
        outputs.append(("journal copy", try Self.payloadText(of: copy)))
        let report = root + "/report.html"
        _ = ReplayHarness.run(["report", "-o", report, copy])
        // The page's own words (its script, its styles: `mark`, `lane`, `long`) are not the
        // items': those of a report of a journal without them are left out of its check.
        let emptyJournal = root + "/empty"
        let emptyWriter = try JournalWriter(directory: emptyJournal, options: JournalOptions(), snapshot: { _ in StateCodec.encode(SDKState()) })
        var reachable = RecordBundle()
        FactCodec.append(.networkReachable, to: &reachable)
        _ = try emptyWriter.appendBundle(reachable, timestamp: JournalTime(microsecondsSince1970: 1_764_000_000_000_000))
        try emptyWriter.close()
        _ = ReplayHarness.run(["report", "-o", root + "/empty.html", emptyJournal])
        let page = Self.readableRuns(of: try String(contentsOfFile: root + "/empty.html", encoding: .utf8))
        outputs.append(("report of the copy", try String(contentsOfFile: report, encoding: .utf8)))
        let diagnostics = DiagnosticsCopier(journalDirectory: journal, storage: PosixStorage(), destination: root + "/diagnostics",
                                            byteBudget: 256 << 20, note: nil)
        _ = try diagnostics.run()
        outputs.append(("exportDiagnostics", try Self.payloadText(of: root + "/diagnostics")))

        for (name, output) in outputs {
            let runs = Self.readableRuns(of: output)
            let leaked = secrets.filter { runs.contains($0.1) && !(name.hasPrefix("report") && page.contains($0.1)) }
            #expect(leaked.isEmpty, "\(name): \(leaked.count) planted pieces leak: \(leaked.prefix(10).map { "#\($0.0.index) \($0.0.kind) \($0.1) in \($0.0.value)" })")
            print("redaction corpus, \(name): \(secrets.count) planted pieces of \(Self.corpus.entries.count) items, \(secrets.count - leaked.count) became tokens")
        }
    }
}

extension PublicCall {
    /// A call id made from `index` and the call's name, the same on every run.
    func id(_ index: Int) -> CallID {
        CallID(UUID(uuidString: String(format: "00000000-0000-4000-9000-%012llx", index * 64 + PublicCall.Name.allCases.firstIndex(of: name)!))!)
    }
}
