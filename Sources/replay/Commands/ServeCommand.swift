import Foundation
import Journal
import ReplayKit

/// `replay serve`: the report as a local web app that answers any moment of any served journal.
struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "a local web app: any moment's state, diff, fact and audit row, many journals"
    static let help = """
        usage: replay serve [--port N] [--host ADDR] [--allow-host NAME]... [--page-wait S] [--salvage] <journal>... [--received <file>...]

        Serves the journals (directories, folders of journal folders, or device folders: an app's
        and its extensions' journals, served as one page with a lane per process beside each
        process's own) on http://127.0.0.1:PORT/
        (and http://[::1]:PORT/ where the machine has IPv6) and prints that address. Each journal's page is its HTML report, plus a scrubber over
        the whole journal, stepping keys (Left/Right: previous/next fact; with Shift: call;
        [ and ]: switch), search over every fact, and a journal picker when there are several.
        Any moment's state, its diff from the moment before, its fact and its call's audit row
        are computed on demand by the same fold and seek as `replay state --at` (the state is
        the very bytes it prints). A journal's page takes one pass over the journal: while a
        long one runs, the page's address answers with its first paint (records over time, from
        the index files, and the pass's progress), which turns into the page when it is ready.
        Runs until interrupted (Ctrl-C).

        Nothing leaves the machine: it listens on the loopback interface only, answers only
        requests addressed to it as 127.0.0.1, [::1], localhost, the --host address or an --allow-host
        name (a web page elsewhere that reaches it under another name, by DNS rebinding, gets
        403), serves its fixed pages and endpoints only (no file by its path) and the pages load
        nothing from elsewhere. Pages show the journals' personal data as they are: to show a
        journal to someone else, serve a redacted copy of it instead:
          replay export --redact --format journal -o COPY <journal>; replay serve COPY

          --port N      the port (default 0: a free one, chosen by the system)
          --host ADDR   listen on ADDR instead of 127.0.0.1 and ::1 (an IPv4 or IPv6 address,
                        e.g. 0.0.0.0 for every interface): only when the page must be reached
                        from elsewhere
          --allow-host NAME
                        answer requests addressed to NAME too (a machine's name or address
                        others reach it by, e.g. support-box.local); repeatable
          --page-wait S how long a request for a page waits for its pass before answering with
                        the first paint (default 1 second; 0 answers with it at once)
        \(SalvageOption.help(column: 16))
                        (for the pages, which name each loss at their top; a moment in a
                        damaged segment is refused, as `replay state --at` refuses it)
        \(ReceivedLogs.help)
                           (one reconciliation of every journal served against every log,
                           before serving; a call's moment, #seq=N, names its verdict and receipts)
        """

    let paths: [String]
    let port: UInt16
    let host: String
    let allowedHosts: [String]
    let receiptLogs: [String]
    /// How long a page request waits for the page's pass (`--page-wait`), in milliseconds.
    let pageWaitMilliseconds: Int
    let salvage: SalvageOption

    init(arguments: inout Arguments) throws(UsageError) {
        receiptLogs = try arguments.optionList("--received")
        salvage = SalvageOption(arguments: &arguments)
        port = try arguments.option("--port", as: "a port number (0 to 65535)") { UInt16($0) } ?? 0
        host = try arguments.option("--host") ?? "127.0.0.1"
        allowedHosts = try arguments.options("--allow-host")
        pageWaitMilliseconds = try arguments.option("--page-wait", as: "seconds (0 to 3600)") { text in
            Double(text).flatMap { (0...3600).contains($0) ? Int(($0 * 1000).rounded()) : nil }
        } ?? 1000
        var paths = [try arguments.positional("journal directory")]
        while let more = arguments.optionalPositional() { paths.append(more) }
        if paths.contains("-") { throw UsageError("serve reads journal directories, not standard input") }
        self.paths = paths
    }

    /// The journals served and the server over them, listening (not yet accepting).
    func listen(console: Console) throws -> (journals: ServedJournals, server: LoopbackServer) {
        let patience = DispatchTimeInterval.milliseconds(pageWaitMilliseconds)
        let layout = ServedJournals(paths: paths, firstPaintPatience: patience, pageReadMode: salvage.readMode())
        // Each is opened once now, so a path that is not a journal is named before serving.
        for path in layout.journalPaths { _ = try JournalSource.open(path, console: console, headers: .onDemand) }
        let journals = receiptLogs.isEmpty ? layout
            : ServedJournals(paths: paths, received: try ReceivedLogs.reconcile(journals: layout.journalPaths, logs: receiptLogs,
                                                                               salvage: salvage, command: Self.name, console: console),
                             firstPaintPatience: patience, pageReadMode: salvage.readMode())
        let server = try LoopbackServer(host: host, port: port, allowedHosts: allowedHosts) { journals.answer($0) }
        return (journals, server)
    }

    func run(console: Console) throws -> ExitStatus {
        let (journals, server) = try listen(console: console)
        if !LoopbackServer.isLoopback(host) {
            console.printError("replay serve: listening on \(host), beyond this machine: anyone who reaches it reads these journals")
            if allowedHosts.isEmpty && (host == "0.0.0.0" || host == "::") {
                console.printError("replay serve: it answers only to 127.0.0.1 and localhost; --allow-host NAME for the name others reach it by")
            }
        }
        console.print("replay serve: \(journals.entries.count) journal(s) on \(server.url)")
        for (index, entry) in journals.entries.enumerated() {
            let device = entry.device.map { " (a device: \($0.folder.lanes.map(\.role).joined(separator: ", ")) in one timeline)" } ?? ""
            console.print("  \(server.url)j/\(index)/  \(entry.path)" + device)
        }
        console.flush()
        server.start()
        // Until the process is interrupted; the server's threads answer.
        while true { sleep(3600) }
    }
}
