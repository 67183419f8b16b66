import Journal
import SDKCore

// A suspended app holds no lock on its journal (docs/PLATFORMS.md, "App extensions"): iOS kills
// a suspended process that holds a file lock in an App Group container (0xdead10cc). Once the
// background time ended, the journal is closed (everything durable, its lock given back)
// whenever the engine is idle, and opened again by the next input, which takes the lock again.
extension EngineShell {
    /// Closes the journal, which gives its lock back, while ``suspended``; nothing when the
    /// recorder holds no lock or is closed already. A close that fails begins an outage (the
    /// reopening recovers what the disk kept, and counts what it lost).
    package func giveBackJournal() {
        guard suspended, !journalGivenBack, recorder.locksJournal else { return }
        guard outage == nil else {
            // A failed writer may still hold the lock: closed too; the outage's retry opens anew.
            try? recorder.close()
            return
        }
        do {
            try recorder.close()
            journalGivenBack = true
        } catch {
            beginOutage("closing the journal for a suspension: \(error)", at: now())
        }
    }

    /// Opens the journal again after ``giveBackJournal()``, taking its lock. A lock another
    /// writer holds now, or a journal that grew while it was given back (another process of the
    /// same role wrote it), begins an outage: its retry opens the journal with a new segment
    /// whose snapshot is this engine's state, and a `journalGap` that says why.
    func takeJournalBack(at time: JournalTime) {
        journalGivenBack = false
        do {
            guard let fresh = try environment.reopenRecorder() else { return }
            let closedAt = recordedSequence
            replaceRecorder(with: fresh)
            if fresh.recoveredThrough != closedAt {
                beginOutage("records \(closedAt &+ 1)...\(fresh.recoveredThrough) were written to this journal by another writer "
                            + "while this process had given its lock back (two processes of one role?)", at: time)
            }
        } catch {
            beginOutage("opening the journal after a suspension: \(error)", at: time)
        }
    }
}
