import Journal
import ReplayKit

/// `--received FILE...` of `replay report` and `replay serve`: the journals reconciled with the
/// receipt logs by `replay reconcile`'s own ``JournalReconciler``, each journal's verdicts
/// kept for its page (``ReceivedCalls``).
enum ReceivedLogs {
    static let help = """
          --received F...  backends' receipt logs (docs/RECONCILE.md): each call gets what
                           `replay reconcile` says of it, as a receipt mark on the lane of the
                           project that received it (agreed quiet; elsewhere, lost, duplicate,
                           unconfirmed, late, unjournaled marked) and in its details; every
                           argument after it up to the next option, or --received=F
        """

    /// Reconciles `journals` with `logs`: one ``ReceivedCalls`` per journal, in order, each
    /// journal read as `salvage` says (past damage, the records lost are a hole whose receipts
    /// are not judged). Bad input is named on standard error as `replay reconcile` names it
    /// (`FILE:LINE: …`, `JOURNAL record N …`); a log that cannot be read at all throws, naming
    /// it (exit 2).
    static func reconcile(journals: [String], logs: [String], salvage: SalvageOption, command: String,
                          console: Console) throws -> [ReceivedCalls] {
        let reconciler = JournalReconciler()
        for path in journals {
            console.progress("reconciling \(path)")
            try reconciler.addJournal(path: path, reader: try JournalSource.open(path, console: console, readMode: salvage.readMode()))
        }
        for log in logs {
            console.progress("matching \(log)")
            do throws(ReceiptLogError) {
                try reconciler.addReceipts(path: log)
            } catch {
                console.clearProgress()
                throw ReceiptLogUnreadable(description: error.path.isEmpty ? log + ": " + error.problem : error.description)
            }
        }
        console.clearProgress()
        for problem in reconciler.problems { console.printError("replay \(command): \(problem)") }
        return ReceivedCalls.perJournal(reconciler)
    }
}
