import Dispatch

// Logs out of the app: a redacted, size-bounded copy of the journal to send to support.
extension EngagementSDK {
    /// The default budget of a diagnostics copy: 8 MiB, two default journal segments.
    public static let defaultDiagnosticsByteBudget = 8 << 20

    /// The queue diagnostics copies run on: their own, never the engine's thread, one at a time.
    private static let diagnosticsQueue = DispatchQueue(label: "engagement-sdk.diagnostics", qos: .utility)

    /// Writes a redacted copy of the journal into `directory` (created; it may exist if empty), for
    /// an app to send to support.
    ///
    /// The copy is what `replay export --redact --format journal` writes (emails, user ids, push
    /// tokens and data values become keyed-hash tokens under a key made for this copy and then
    /// forgotten), of the newest journal segments that fit `byteBudget` (files and manifest
    /// together); `diagnostics.json` in it says what was left out. It holds no API key: the journal
    /// never has one and the keyring is not read.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited). To await the
    /// copy instead: `try await sdk.outcome.exportDiagnostics(to: directory)`
    /// (``AwaitedCalls/exportDiagnostics(to:byteBudget:)``). The SDK is first asked for a flush,
    /// so every call made before this one is on disk (a failed flush is noted in the copy); the
    /// copy is then made on a queue of its own, one copy at a time, reading the journal files while
    /// the engine goes on processing calls. Never blocks the engine and never sends anything; works
    /// after ``shutdown()`` too. `completion` runs once on ``SDKConfiguration/callbackQueue`` with the ``DiagnosticsExport``
    /// written or a ``DiagnosticsExportError`` (the destination is not an empty directory, the
    /// budget is too small, the journal cannot be read, the copy cannot be written).
    public func exportDiagnostics(to directory: String, byteBudget: Int = defaultDiagnosticsByteBudget,
                                  completion: @escaping @Sendable (Result<DiagnosticsExport, DiagnosticsExportError>) -> Void) {
        let journalDirectory = configuration.journalDirectory
        let storage = configuration.journalStorage
        let callbackQueue = configuration.callbackQueue
        flush { outcome in
            let note: String? = if case .failed(let failure) = outcome { "the flush asked for first failed (\(failure)): the newest calls may be missing" } else { nil }
            Self.diagnosticsQueue.async {
                let copier = DiagnosticsCopier(journalDirectory: journalDirectory, storage: storage, destination: directory,
                                               byteBudget: byteBudget, note: note)
                let result = Result { () throws(DiagnosticsExportError) in try copier.run() }
                callbackQueue.async { completion(result) }
            }
        }
    }
}

extension AwaitedCalls {
    /// Writes a redacted, size-bounded copy of the journal into `directory`, as
    /// ``EngagementSDK/exportDiagnostics(to:byteBudget:completion:)`` does, and returns what it
    /// wrote. Throws ``DiagnosticsExportError``.
    ///
    /// Returns once the copy is written: after a flush of the calls made before it and the copy
    /// itself, on disk only; never waits for the network.
    @discardableResult
    public func exportDiagnostics(to directory: String,
                                  byteBudget: Int = EngagementSDK.defaultDiagnosticsByteBudget) async throws -> DiagnosticsExport {
        try await withCheckedThrowingContinuation { continuation in
            sdk.exportDiagnostics(to: directory, byteBudget: byteBudget) { continuation.resume(with: $0) }
        }
    }
}
