import Foundation
import Journal
import ReplayKit

extension ReportCommand {
    /// The report of a device folder: each process's own report (`OUT-ROLE.html`), then the
    /// device's page (`OUT.html`, ``DevicePage``) linking to them.
    func run(_ device: DeviceFolder, console: Console) throws -> ExitStatus {
        guard receiptLogs.isEmpty else {
            throw UsageError("--received reads one journal's receipts: give a process's journal (\(device.lanes.map(\.path).joined(separator: ", ")))")
        }
        let base = output.hasSuffix(".html") ? String(output.dropLast(5)) : output
        let title = (device.path as NSString).lastPathComponent
        var reports: [String] = []
        var findings = false
        var processes: [JSONValue] = []
        for lane in device.lanes {
            let file = base + "-" + lane.role + ".html"
            let timeline = try TimelineBuilder.build(reader: try JournalSource.open(lane.path, console: console, readMode: salvage.readMode()),
                                                     keeping: .page(nil), onProgress: { console.progress("\(lane.role): reading seq \($0)") })
            console.clearProgress()
            let page = ReportPage.html(data: try ReportData.make(timeline, received: nil), title: "\(title) (\(lane.role))")
            try ReplacedFile.write(Data(page.utf8), to: file)
            reports.append((file as NSString).lastPathComponent)
            if timeline.unreadable > 0 || timeline.violationCount > 0 { findings = true }
            processes.append(.object([("process", .string(lane.role)), ("output", .string(file)), ("records", .integer(Int64(timeline.records))),
                                      ("calls", .integer(Int64(timeline.callCount))), ("violations", .integer(Int64(timeline.violationCount)))]))
            if !json {
                console.print("wrote \(file): \(Format.count(timeline.records)) records, \(Format.count(timeline.callCount)) call(s), "
                              + "\(timeline.violationCount) violation(s)")
            }
        }
        let merge = try DeviceMerge(folder: device) { try JournalSource.open($0, console: console, readMode: salvage.readMode()) }
        let (page, shown, facts) = try DevicePage.html(merge, title: title, pages: reports)
        try ReplacedFile.write(Data(page.utf8), to: output)
        if json {
            console.print(JSONValue.object([("output", .string(output)), ("facts", .integer(Int64(facts))), ("shown", .integer(Int64(shown))),
                                            ("processes", .array(processes))]).serialized())
        } else {
            console.print("wrote \(output): \(Format.count(facts)) facts of \(device.lanes.count) process(es) in one timeline"
                          + (shown < facts ? " (the first \(Format.count(shown)) shown)" : ""))
        }
        if merge.reportProblems(command: Self.name, console: console) { findings = true }
        return findings ? .findings : .ok
    }

}
