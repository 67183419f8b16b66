import Foundation
import Journal
import SDK

/// `replay export` over many journals: several journal directories, or a folder of journal
/// folders. Each journal is streamed on its own (never loaded whole) into its own NDJSON file or
/// journal directory under the output directory, or appended to one NDJSON file
/// (`--single-file`), `jobs` journals side by side (``InOrderWork``); what is printed and the
/// combined file's rows come in the journals' order whatever `jobs` is. A journal that cannot
/// be exported is reported by name on standard error, its partial output removed, and the
/// others still exported (exit status 1).
package struct FleetExport: Sendable {
    let command: JournalExport
    /// The redaction key; nil: a random one made for this run and then forgotten (the
    /// command's only way: a key given is for tests that compare two runs' files).
    let key: KeyedHash?

    package init(command: JournalExport, key: KeyedHash? = nil) {
        self.command = command
        self.key = key
    }

    /// One journal to export, and the name its output takes.
    struct Input: Sendable {
        var name: String
        var path: String
    }

    /// Whether `path` is a directory that holds journal directories rather than segments.
    package static func isFolderOfJournals(_ path: String) -> Bool {
        guard path != "-", isDirectory(path), !holdsSegments(path) else { return false }
        return subdirectories(of: path).contains(where: holdsSegments)
    }

    static func holdsSegments(_ path: String) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.contains { $0.hasPrefix("segment-") && $0.hasSuffix(".lz4") }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    private static func subdirectories(of path: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }.filter(isDirectory)
    }

    /// The journal paths `paths` name, in order: a folder of journals stands for its
    /// subdirectories (sorted by name), any other path for itself.
    package static func journalPaths(_ paths: [String]) -> [String] {
        paths.flatMap { isFolderOfJournals($0) ? subdirectories(of: $0) : [$0] }
    }

    /// The journals the paths name, in order: a folder of journals stands for its
    /// subdirectories (sorted by name). Output names are folder names, made unique.
    func inputs() -> [Input] {
        let paths = Self.journalPaths(command.paths)
        var taken: [String: Int] = [:]
        return paths.map { path in
            let base = path == "-" ? "standard-input" : (path as NSString).standardizingPath.split(separator: "/").last.map(String.init) ?? "journal"
            taken[base, default: 0] += 1
            let count = taken[base] ?? 1
            return Input(name: count == 1 ? base : "\(base)-\(count)", path: path)
        }
    }

    /// One journal's export as a worker did it: its summary or what went wrong, what it said
    /// on standard error, and (`--single-file`) its rows: held in memory when they fit in one
    /// piece of ``NDJSONFile`` (1 MiB), else the file they wait in.
    private struct Done: Sendable {
        var result: Result<JournalExport.ExportSummary, Failure>
        var messages: String
        var part: String?
        var held: [UInt8]?
    }

    private struct Failure: Error, Sendable {
        var problem: String
    }

    package func run(console: Console) throws -> ExitStatus {
        let inputs = inputs()
        let output = command.output
        if command.singleFile {
            guard !FileManager.default.fileExists(atPath: output) else { throw ExportError.exists(output) }
        } else {
            try Self.createOutputDirectory(output)
        }
        let single = command.singleFile ? try NDJSONFile(creating: output) : nil
        let redactor = Redactor(tokens: TokenMemo(try key ?? KeyedHash.random()))
        var records = 0, emptied = 0, exported = 0
        var failures: [(path: String, problem: String)] = []
        var appendFailure: (any Error)?
        let export = self
        let singlePath = single?.path
        // Journals side by side, each into its own file (with --single-file a part of its own,
        // appended here in order); what each says is printed here, in the journals' order.
        InOrderWork.run(count: inputs.count, jobs: command.jobs, work: { index in
            export.exportCaptured(inputs[index], index: index, redactor, singleFile: singlePath)
        }) { index, done in
            console.progress("[\(index + 1)/\(inputs.count)] \(inputs[index].name)")
            for line in done.messages.split(separator: "\n", omittingEmptySubsequences: true) { console.printError(String(line)) }
            if case .success = done.result, let single, appendFailure == nil {
                // The combined file could not take it: the export stops with that error.
                do {
                    if let held = done.held {
                        try held.withUnsafeBytes { try single.write($0) }
                    } else if let part = done.part {
                        try Self.append(part, to: single)
                    }
                } catch { appendFailure = error }
            }
            // A part left behind (copied already, or its export failed) is only litter beside the
            // output: what went wrong was said above.
            if let part = done.part { try? FileManager.default.removeItem(atPath: part) }
            switch done.result {
            case .success(let summary):
                records += summary.records
                emptied += summary.emptied
                exported += 1
            case .failure(let failure):
                console.clearProgress()
                let input = inputs[index]
                let named = failure.problem.contains(input.path) ? failure.problem : input.path + ": " + failure.problem
                console.printError("replay export: \(named); left out, the others go on")
                failures.append((input.path, failure.problem))
            }
        }
        if let appendFailure { throw appendFailure }
        try single?.close()
        console.clearProgress()
        if command.json {
            console.print(JSONValue.object([
                ("output", .string(output)), ("format", .string(command.format.rawValue)),
                ("journals", .integer(Int64(exported))), ("records", .integer(Int64(records))), ("emptied", .integer(Int64(emptied))),
                ("failed", .array(failures.map { .object([("path", .string($0.path)), ("problem", .string($0.problem))]) })),
            ]).serialized())
        } else {
            console.print("wrote \(Format.count(records)) redacted record(s) of \(exported) journal(s) to \(output) (\(command.format.rawValue))"
                          + (failures.isEmpty ? "" : "; \(failures.count) journal(s) could not be exported (see above)"))
        }
        if emptied > 0 {
            console.printError("replay export: \(emptied) record(s) could not be read and were kept empty; the copy is incomplete")
        }
        return failures.isEmpty && emptied == 0 ? .ok : .findings
    }

    /// Exports journal number `index` on a worker thread, what it says on standard error kept
    /// for the calling thread to print in order. With `singleFile` (the combined file's path)
    /// its rows go to a part of their own first (in memory, or a file when they outgrow it), so
    /// a journal that fails halfway leaves no partial rows in the combined file.
    private func exportCaptured(_ input: Input, index: Int, _ redactor: Redactor, singleFile: String?) -> Done {
        let messages = CapturedMessages()
        let console = Console(out: { _ in }, error: { messages.text += $0 })
        let part = singleFile.map { $0 + ".part-\(index)" }
        do {
            if let part, command.format == .ndjson {
                let (summary, held) = try exportHeld(input, redactor, part: part, console: console)
                return Done(result: .success(summary), messages: messages.text, part: held == nil ? part : nil, held: held)
            }
            return Done(result: .success(try export(input, redactor, part: part, console: console)), messages: messages.text, part: part)
        } catch {
            if let part { try? FileManager.default.removeItem(atPath: part) } // litter: the export's error is the one to say
            return Done(result: .failure(Failure(problem: Self.describe(error))), messages: messages.text, part: nil)
        }
    }

    /// Exports one journal (its NDJSON rows into `part` when given); on failure removes what
    /// it wrote of it.
    private func export(_ input: Input, _ redactor: Redactor, part: String?, console: Console) throws -> JournalExport.ExportSummary {
        let reader = try JournalSource.open(input.path, console: console)
        let target: String
        switch (command.format, part) {
        case (.ndjson, let part?):
            return try exportNDJSON(reader, redactor, to: part, console: console)
        case (.ndjson, nil):
            target = command.output + "/" + input.name + ".ndjson"
            return try exportNDJSON(reader, redactor, to: target, console: console)
        case (.journal, _):
            target = command.output + "/" + input.name
            do { return try command.exportJournal(reader, redactor, to: target, console: console) } catch {
                try? FileManager.default.removeItem(atPath: target)
                throw error
            }
        case (.trace, _):
            target = command.output + "/" + input.name + ".trace.json"
            do {
                let written = try TraceExporter.write(reader, redactor, to: target, console: console)
                return JournalExport.ExportSummary(records: written.records, emptied: written.emptied)
            } catch {
                try? FileManager.default.removeItem(atPath: target)
                throw error
            }
        }
    }

    /// Exports one journal's NDJSON rows into a part held in memory, or the file `part` once
    /// they outgrow it (then removed on failure): the summary and the rows when held.
    private func exportHeld(_ input: Input, _ redactor: Redactor, part: String,
                            console: Console) throws -> (JournalExport.ExportSummary, [UInt8]?) {
        let reader = try JournalSource.open(input.path, console: console)
        let file = NDJSONFile(holding: part)
        do {
            let summary = try command.exportNDJSON(reader, redactor, into: file, console: console)
            return (summary, try file.closeHolding())
        } catch {
            try? file.close()
            try? FileManager.default.removeItem(atPath: part)
            throw error
        }
    }

    private func exportNDJSON(_ reader: JournalReader, _ redactor: Redactor, to target: String,
                              console: Console) throws -> JournalExport.ExportSummary {
        let file = try NDJSONFile(creating: target)
        do {
            let summary = try command.exportNDJSON(reader, redactor, into: file, console: console)
            try file.close()
            return summary
        } catch {
            try? file.close()
            try? FileManager.default.removeItem(atPath: target)
            throw error
        }
    }

    private static func append(_ part: String, to single: NDJSONFile) throws {
        guard let handle = FileHandle(forReadingAtPath: part) else { throw ExportError.cannotWrite(part) }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            try single.writeRaw(Array(chunk))
        }
    }

    private static func createOutputDirectory(_ path: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            guard isDirectory(path), (try? manager.contentsOfDirectory(atPath: path))?.isEmpty == true else {
                throw ExportError.exists(path)
            }
            return
        }
        do { try manager.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) }
        catch { throw ExportError.cannotWrite(path) }
    }

    /// An error in the words the single-journal commands use.
    /// How a journal that could not be read is described: corruption by where it stops.
    package static func describe(_ error: any Error) -> String {
        if case JournalError.corrupted(let damage) = error { return "stopped at \(damage)" }
        return "\(error)"
    }
}

/// What one journal's export said on standard error, gathered on the worker thread that
/// exports it (used on one thread at a time).
private final class CapturedMessages {
    var text = ""
}
