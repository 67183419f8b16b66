import Journal
import ReplayKit
import SDK

extension TimelineCommand {
    /// The timeline of a device folder: every process's facts in one stream (``DeviceMerge``),
    /// each line led by its process's role (`--json`: a `process` member), nesting, labels and
    /// the project filter kept per process.
    func run(_ device: DeviceFolder, console: Console) throws -> ExitStatus {
        let merge = try DeviceMerge(folder: device, start: from.map { .at($0) } ?? .beginning) { path in
            try JournalSource.open(path, console: console, readMode: salvage.readMode())
        }
        // Each process's journal id, read once: `--call`'s wire ids are derived from it.
        let streams = device.lanes.indices.map(merge.journalID(ofLane:))
        var foundCall = false
        let width = device.roleWidth
        var depths = device.lanes.indices.map { TimelineLine.depth(merge.walk($0).state) }
        var labels = device.lanes.indices.map { lane in
            var labels = ProjectLabels()
            labels.learn(from: merge.walk(lane).state)
            return labels
        }
        while let (lane, record) = try merge.next() {
            let walk = merge.walk(lane)
            labels[lane].learn(from: record)
            if let to, !to.includes(sequence: record.sequence, time: record.time) { continue }
            let mentioned = record.fact.map { FactProjects.mentioned(by: $0, in: walk.state) } ?? []
            let live = walk.state.live?.fingerprint
            let aboutCall = isAboutSelectedCall(record, before: walk.state, stream: streams[lane])
            foundCall = foundCall || aboutCall
            walk.fold(record)
            let after = TimelineLine.depth(walk.state)
            let shownDepth = record.isSnapshot ? 0 : min(depths[lane], after)
            depths[lane] = after
            guard kinds.isEmpty || kinds.contains(record.kindName), aboutCall else { continue }
            if let project, !(mentioned.isEmpty ? live.map { project.matches($0, labels: labels[lane]) } ?? false
                                                : project.matchesAny(mentioned, labels: labels[lane])) { continue }
            let role = device.lanes[lane].role
            if json {
                console.printJSON(FactJSON.object(record, extra: [("process", .string(role)), ("depth", .integer(Int64(shownDepth)))],
                                                  labels: labels[lane]))
            } else {
                console.print(role.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                              + TimelineLine.line(record, depth: shownDepth, labels: labels[lane]))
            }
        }
        if !calls.isEmpty && !foundCall { noteNoCall(path: device.path, partly: from != nil || to != nil, console: console) }
        return merge.reportProblems(command: Self.name, console: console) ? .findings : .ok
    }
}
