import Foundation
import Journal
import SDK

/// The journals of a ``DeviceFolder`` as one stream of (lane, record), ordered by the records'
/// times, each lane's own order kept.
///
/// Each lane is a ``JournalWalk`` of its own (its own fold: each process runs an SDK instance
/// of its own). ``next()`` hands out the record whose time is earliest among the lanes' next
/// records; the caller folds it into that lane's walk (``walk(_:)``) before asking again. So:
///
/// - a lane's records come in its sequence order, always (only a lane's next record competes);
/// - records of equal time come in lane order (the app first, then the roles by name);
/// - times are compared as recorded: processes on one device read one wall clock, and each
///   SDK's journal time never goes back within its journal; after a jump of the wall clock two
///   lanes may be apart by up to the jump (each lane's `clockJumped` fact says so), and the
///   merge does not correct it.
///
/// Memory: one walk per lane, each bounded by its state.
package final class DeviceMerge {
    package let folder: DeviceFolder
    private let walks: [JournalWalk]

    /// Opens a walk over each lane's journal at `start` (``JournalWalk/Start``; a sequence number
    /// applies to each lane's own numbering).
    package init(folder: DeviceFolder, start: JournalWalk.Start = .beginning, open: (String) throws -> JournalReader) throws {
        self.folder = folder
        walks = try folder.lanes.map { try JournalWalk(reader: try open($0.path), start: start) }
    }

    /// Lane `lane`'s walk: its state before the record just handed out, and its fold.
    package func walk(_ lane: Int) -> JournalWalk {
        walks[lane]
    }

    /// Lane `lane`'s journal id (from which its calls' wire ids are derived), when its headers carry one.
    package func journalID(ofLane lane: Int) -> UUID? {
        walks[lane].reader.journalID
    }

    /// The next record of the device, and its lane; nil once every lane ended.
    package func next() throws -> (lane: Int, record: DecodedRecord)? {
        var earliest: (lane: Int, time: JournalTime)?
        for (lane, walk) in walks.enumerated() {
            guard let head = try walk.peek() else { continue }
            // Strictly earlier: a tie goes to the lane listed first.
            if earliest.map({ head.time < $0.time }) ?? true { earliest = (lane, head.time) }
        }
        guard let lane = earliest?.lane, let record = try walks[lane].next() else { return nil }
        return (lane, record)
    }

    /// Each lane's problems (unreadable records, a torn tail), on standard error, prefixed by
    /// its role; whether any is worth exit status 1.
    package func reportProblems(command: String, console: Console) -> Bool {
        var findings = false
        for (lane, walk) in walks.enumerated() {
            if walk.stream.reportProblems(command: "\(command) (\(folder.lanes[lane].role))", console: console) { findings = true }
        }
        return findings
    }
}
