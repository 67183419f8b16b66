import Journal
import SDK

/// An interactive walk through a journal, one command per input line: move forwards and
/// backwards, jump to a sequence number, time or switch, look at the state, at what the last
/// move changed, search. Works the same with piped input (scripts, tests).
///
/// Moving forwards folds on; moving backwards or jumping seeks anew from the nearest snapshot.
/// Memory holds the state, the state before the last move (for `diff`) and one record.
package final class StepSession {
    package static let help = """
        commands:
          next [N]         (n, or an empty line) the next N facts
          prev [N]         (p) back N facts
          goto SEQ|TIME    (g) to a sequence number, or the last fact at or before a time
          switch N         (s) to the start of switch N (its switchRouted)
          state            the state after the current fact
          diff             what the last move changed in the state
          find TEXT        (f) forward to the next fact whose line contains TEXT
          where            the current position
          help             (h, ?) this list
          quit             (q) leave
        """

    private let reader: JournalReader
    private let console: Console
    private var walk: JournalWalk
    /// The state document before the last move.
    private var previous: JSONValue?
    /// The projects' labels learned so far (from the states jumped to and the records read), so
    /// that a line reads as `replay timeline` prints it.
    private var labels = ProjectLabels()
    /// The damage the walk stopped at, while it stays before it: moving on meets it again.
    private var damageAhead: Damage?

    package init(reader: JournalReader, console: Console) throws {
        self.reader = reader
        self.console = console
        walk = try JournalWalk(reader: reader, remembersLastFolded: true)
    }

    /// The line of `record`, folded into the walk now, at the depth of the switch or step it
    /// stands in (`depthBefore`: the depth before it was folded).
    private func line(_ record: DecodedRecord, depthBefore: Int) -> String {
        labels.learn(from: record)
        return TimelineLine.line(record, depth: min(depthBefore, TimelineLine.depth(walk.state)), labels: labels)
    }

    /// Reads commands until `quit` or the end of input.
    package func run() throws {
        let first = reader.segments.first?.baseSequence ?? 1
        console.print("step: \(reader.directory), records from seq \(first). Type `help` for commands.")
        while true {
            if console.inputIsTerminal { console.prompt(promptText) }
            guard let line = console.readLine() else { break }
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            let command = words.first?.lowercased() ?? "next"
            let argument = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : nil
            do {
                if try !perform(command, argument) { break }
            } catch let error as MomentError {
                console.print("! \(error)")
            } catch JournalError.corrupted(let damage) {
                stayAfterDamage(damage)
            }
        }
    }

    /// A move met damage: says where, and what can still be read past it, and stays at the last
    /// fact read before it (or where it was, for a jump that met it), so that the session goes on.
    private func stayAfterDamage(_ damage: Damage) {
        damageAhead = damage
        sayDamage(damage)
        showCurrent()
    }

    /// What `damage` stops and where reading can go on.
    private func sayDamage(_ damage: Damage) {
        let after = damage.sequence.flatMap { lost in reader.segments.first { $0.baseSequence > lost }?.baseSequence }
        console.print("! stopped at \(damage): "
                      + (after.map { "the next segment begins at seq \($0); `goto` it or later to go on" } ?? "nothing after it can be read"))
    }

    private var promptText: String {
        walk.position.map { "[seq \($0.sequence)] > " } ?? "[start] > "
    }

    /// Runs one command; false to leave.
    private func perform(_ command: String, _ argument: String?) throws -> Bool {
        switch command {
        case "next", "n":
            guard let count = Self.count(argument) else { return usage("next [N]") }
            try forward(count)
        case "prev", "p", "back", "b":
            guard let count = Self.count(argument) else { return usage("prev [N]") }
            guard let current = walk.position?.sequence else {
                console.print("! at the start already")
                return true
            }
            let first = reader.segments.first?.baseSequence ?? 1
            guard current > first else {
                console.print("! at the first record already")
                return true
            }
            let target = current > UInt64(count) ? max(current - UInt64(count), first) : first
            try jump(to: .sequence(target))
        case "goto", "g", "go":
            guard let text = argument, let moment = Moment.parse(text) else { return usage("goto SEQ|TIME") }
            try jump(to: moment)
        case "switch", "s":
            guard let text = argument, let number = UInt64(text.hasPrefix("s") ? String(text.dropFirst()) : text) else {
                return usage("switch N")
            }
            guard let sequence = try findSwitch(number) else {
                console.print("! no switch s\(number) in this journal")
                return true
            }
            try jump(to: .sequence(sequence))
        case "state":
            console.print(walk.position.map { "state after seq \($0.sequence) (\($0.time))" } ?? "state before the first record")
            DocumentText.lines(StateDocument.make(walk.state)).forEach(console.print)
        case "diff":
            guard let previous else {
                console.print("! no move yet")
                return true
            }
            let diff = DocumentDiff(from: previous, to: StateDocument.make(walk.state))
            console.print(diff.isEmpty ? "no change" : "\(diff.changes.count) change(s)")
            diff.lines().forEach(console.print)
        case "find", "f", "/":
            guard let text = argument, !text.isEmpty else { return usage("find TEXT") }
            try find(text)
        case "where", "w":
            showCurrent()
        case "help", "h", "?":
            console.print(Self.help)
        case "quit", "q", "exit":
            return false
        default:
            console.print("! unknown command '\(command)'; type `help`")
        }
        return true
    }

    private func usage(_ form: String) -> Bool {
        console.print("! usage: \(form)")
        return true
    }

    private static func count(_ argument: String?) -> Int? {
        guard let argument else { return 1 }
        return Int(argument).flatMap { $0 > 0 ? $0 : nil }
    }

    // MARK: - Moving

    private func forward(_ count: Int) throws {
        if let damageAhead { return sayDamage(damageAhead) }
        let before = StateDocument.make(walk.state)
        var moved = 0
        while moved < count, let record = try walk.next() {
            let depth = TimelineLine.depth(walk.state)
            walk.fold(record)
            console.print(line(record, depthBefore: depth))
            moved += 1
        }
        if moved < count { console.print("(end of the journal)") }
        if moved > 0 { previous = before }
    }

    private func jump(to moment: Moment) throws {
        let before = StateDocument.make(walk.state)
        do {
            walk = try JournalWalk(reader: reader, start: .after(moment), remembersLastFolded: true)
        } catch JournalError.corrupted(let damage) {
            // The walk to the moment met damage: the session stays where it was.
            sayDamage(damage)
            showCurrent()
            return
        }
        damageAhead = nil
        labels.learn(from: walk.state)
        previous = before
        showCurrent()
    }

    private func showCurrent() {
        guard let record = walk.lastFolded else {
            console.print("(at the start, before the first record)")
            return
        }
        labels.learn(from: record)
        console.print(TimelineLine.line(record, depth: TimelineLine.depth(walk.state), labels: labels))
    }

    /// The sequence number of switch `number`'s request.
    private func findSwitch(_ number: UInt64) throws -> UInt64? {
        let stream = try FactStream(reader: reader, decoding: .withoutSnapshots)
        while let record = try stream.next() {
            if case .switchRouted(let id, _, _, _)? = record.fact, id.number == number { return record.sequence }
        }
        return nil
    }

    private func find(_ text: String) throws {
        if let damageAhead { return sayDamage(damageAhead) }
        let needle = text.lowercased()
        let start = walk.position
        let before = StateDocument.make(walk.state)
        while let record = try walk.next() {
            let depth = TimelineLine.depth(walk.state)
            walk.fold(record)
            let text = line(record, depthBefore: depth)
            if text.lowercased().contains(needle) {
                previous = before
                console.print(text)
                return
            }
        }
        console.print("! '\(text)' not found after " + (start.map { "seq \($0.sequence)" } ?? "the start") + "; staying there")
        walk = try start.map { try JournalWalk(reader: reader, start: .after(.sequence($0.sequence)), remembersLastFolded: true) }
            ?? JournalWalk(reader: reader, remembersLastFolded: true)
    }
}
