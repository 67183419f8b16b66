import Foundation
import Journal
import ReplayKit

/// A command run over many journals in one process: each journal answered once, into an
/// output of its own, `jobs` of them side by side (``InOrderWork``: a few answers per thread
/// held at most, so memory does not grow with the folder); the answers printed in the
/// journals' order (text under a `== PATH ==` heading, JSON lines tagged with the journal),
/// the same bytes whatever `jobs` is, then the total.
/// A journal that cannot be read is named and skipped; the others are answered.
struct ManyJournals: Sendable {
    /// What answering one journal gives back besides its output.
    struct Answer: Sendable {
        var status: ExitStatus
        /// The id in the journal's segment headers.
        var journalID: String?
        /// The counts the total adds up.
        var tally: Tally
    }

    /// One journal's output and how its answer ended.
    struct Done: Sendable {
        var out: String
        var error: String
        var result: Result<Answer, Skipped>
    }

    /// A journal that could not be answered.
    struct Skipped: Error, Sendable {
        var problem: String
    }

    /// The command's name, for messages.
    let command: String
    let list: JournalList
    let json: Bool

    /// Answers every journal of the list with `answer`, which writes to the console it is
    /// given as the command does for one journal, and prints the answers and the total.
    func run(console: Console, answer: @escaping @Sendable (_ path: String, _ console: Console) throws -> Answer) -> ExitStatus {
        let journals = list.journals
        var total = Tally()
        var answered = 0
        var skipped: [String] = []
        var worst = ExitStatus.ok
        console.progress("[1/\(journals.count)] \(journals.first ?? "")")
        InOrderWork.run(count: journals.count, jobs: list.jobs, work: { Self.answer(journals[$0], answer) }) { index, done in
            let path = journals[index]
            console.clearProgress()
            forward(done.error, path: path, console: console)
            if !json {
                if index > 0 { console.print() }
                console.print("== \(path) ==")
            }
            switch done.result {
            case .success(let result):
                answered += 1
                total.add(result.tally)
                if result.status.rawValue > worst.rawValue { worst = result.status }
                if json {
                    Self.printTagged(done.out, path: path, id: result.journalID, console: console)
                } else {
                    console.write(done.out)
                }
            case .failure(let skip):
                skipped.append(path)
                let named = skip.problem.contains(path) ? skip.problem : path + ": " + skip.problem
                console.printError("replay \(command): \(named); skipped, the others answered")
                if json {
                    console.print(Self.tagged("{\"skipped\":\(JSONValue.string(skip.problem).serialized())}", path: path, id: nil))
                } else {
                    console.print("skipped: \(skip.problem)")
                }
            }
            if index + 1 < journals.count { console.progress("[\(index + 2)/\(journals.count)] \(journals[index + 1])") }
        }
        printTotal(total, journals: journals.count, answered: answered, skipped: skipped, console: console)
        return skipped.isEmpty || worst != .ok ? worst : .findings
    }

    private func printTotal(_ total: Tally, journals: Int, answered: Int, skipped: [String], console: Console) {
        if json {
            let counts: [(String, JSONValue)] = [("journals", .integer(Int64(journals))), ("answered", .integer(Int64(answered))),
                                                 ("skipped", .array(skipped.map(JSONValue.string)))]
            console.print(JSONValue.object([("total", .object(counts + total.entries.map { ($0.name, .integer(Int64($0.count))) }))]).serialized())
            return
        }
        console.print()
        console.print("== total: \(Format.count(journals)) journal(s), \(Format.count(answered)) answered"
                      + (skipped.isEmpty ? "" : ", \(skipped.count) skipped (\(skipped.joined(separator: ", ")))") + " ==")
        var table = Table([.left, .right])
        for entry in total.entries { table.add([entry.name, Format.count(entry.count)]) }
        table.lines().forEach { console.print("  " + $0) }
    }

    /// A journal's messages on standard error, each naming the journal after the command.
    private func forward(_ messages: String, path: String, console: Console) {
        let prefix = "replay \(command): "
        for line in messages.split(separator: "\n", omittingEmptySubsequences: true) {
            console.printError(line.hasPrefix(prefix) ? prefix + path + ": " + line.dropFirst(prefix.count) : prefix + path + ": " + line)
        }
    }

    /// One journal answered into an output of its own.
    private static func answer(_ path: String, _ answer: (String, Console) throws -> Answer) -> Done {
        let captured = CapturedOutput()
        let console = Console(out: { captured.out += $0 }, error: { captured.error += $0 })
        let result: Result<Answer, Skipped>
        do {
            let answered = try answer(path, console)
            console.flush()
            result = .success(answered)
        } catch {
            result = .failure(Skipped(problem: FleetExport.describe(error)))
        }
        return Done(out: captured.out, error: captured.error, result: result)
    }

    /// `line`, a JSON object, with the journal's path and id as its first members.
    static func tagged(_ line: Substring, path: String, id: String?) -> String {
        guard line.hasPrefix("{") else { return String(line) }
        let rest = line.dropFirst()
        return "{" + tag(path: path, id: id) + (rest.hasPrefix("}") ? "" : ",") + rest
    }

    /// The members that tag a journal's lines: `"journal":PATH,"journal_id":ID`.
    private static func tag(path: String, id: String?) -> String {
        "\"journal\":" + JSONValue.string(path).serialized() + ",\"journal_id\":" + JSONValue.optional(id, JSONValue.string).serialized()
    }

    /// Prints every non-empty line of `out` as ``tagged(_:path:id:)`` makes it, the same bytes,
    /// written from the output's bytes: the tag made once for the journal, no line split out
    /// as a string (splitting a journal's audit into `Substring`s by `Character` was a sixth of
    /// `audit --json` over a folder of small journals).
    private static func printTagged(_ out: String, path: String, id: String?, console: Console) {
        var out = out
        var tag = tag(path: path, id: id)
        tag.withUTF8 { tag in
            out.withUTF8 { bytes in
                let newline = UInt8(ascii: "\n")
                var start = 0
                while start < bytes.count {
                    let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
                    if end > start {
                        let line = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                        console.printLine { output in
                            guard line[0] == UInt8(ascii: "{") else { return output.append(line) }
                            output.append(UInt8(ascii: "{"))
                            output.append(UnsafeRawBufferPointer(tag))
                            if line.count > 1 && line[1] != UInt8(ascii: "}") { output.append(UInt8(ascii: ",")) }
                            output.append(UnsafeRawBufferPointer(rebasing: line[1...]))
                        }
                    }
                    start = end + 1
                }
            }
        }
    }
}

/// Output gathered in memory for one journal (used on one thread at a time).
private final class CapturedOutput {
    var out = ""
    var error = ""
}
