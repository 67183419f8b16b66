import Foundation
import Journal
import Locking
import ReplayKit

/// A command run over many journals in one process: each journal answered once, into an
/// output of its own, `jobs` of them side by side; the answers printed in the journals' order
/// (text under a `== PATH ==` heading, JSON lines tagged with the journal), then the total.
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
        let slots = Slots(count: journals.count)
        let workers = max(1, min(list.jobs, journals.count))
        if workers > 1 {
            let next = NextIndex()
            for _ in 0..<workers {
                let thread = Thread {
                    while let index = next.take(below: journals.count) {
                        slots.fill(index, Self.answer(journals[index], answer))
                    }
                }
                // A fold's stack is that of the main thread's commands, not a helper thread's 512 KiB.
                thread.stackSize = 8 << 20
                thread.start()
            }
        }
        var total = Tally()
        var answered = 0
        var skipped: [String] = []
        var worst = ExitStatus.ok
        for (index, path) in journals.enumerated() {
            console.progress("[\(index + 1)/\(journals.count)] \(path)")
            let done = workers > 1 ? slots.wait(index) : Self.answer(path, answer)
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
                    for line in done.out.split(separator: "\n") { console.print(Self.tagged(line, path: path, id: result.journalID)) }
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
        let tag = "\"journal\":" + JSONValue.string(path).serialized() + ",\"journal_id\":" + JSONValue.optional(id, JSONValue.string).serialized()
        return "{" + tag + (rest.hasPrefix("}") ? "" : ",") + rest
    }
}

/// Output gathered in memory for one journal (used on one thread at a time).
private final class CapturedOutput {
    var out = ""
    var error = ""
}

/// The journals' answers, filled by the workers in any order and taken in order.
private final class Slots: Sendable {
    private let done: Locked<[ManyJournals.Done?]>

    init(count: Int) {
        done = Locked(Array(repeating: nil, count: count))
    }

    func fill(_ index: Int, _ value: ManyJournals.Done) {
        done.withLock { $0[index] = value }
        done.notifyWaiters()
    }

    /// Waits for journal `index`'s answer and takes it out (its memory goes once printed).
    func wait(_ index: Int) -> ManyJournals.Done {
        done.withLock(waitingUntil: { $0[index] != nil }) { done in
            defer { done[index] = nil }
            return done[index]!
        }
    }
}

/// The next journal a worker takes.
private final class NextIndex: Sendable {
    private let next = Locked(0)

    func take(below count: Int) -> Int? {
        next.withLock { next in
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }
}
