import SDK

/// The harness's transport: another transport (URLSession's, against the sandbox) with every
/// request's real-time timeout raised to ``timeout``. Tests hold requests on the sandbox and
/// move the SDK's time with a manual clock: on a slow or busy machine a held request must not
/// come back `timed out` on its own, after URLSession's real 30 s, in the middle of a story
/// that has nothing to do with it. The suites' time limits still bound a hang.
struct PatientTransport: Transport {
    /// Ten minutes: far past any suite's time limit.
    static let timeout: Duration = .seconds(600)

    let base: any Transport

    func send(_ request: TransportRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
        var patient = request
        patient.timeout = max(request.timeout, Self.timeout)
        base.send(patient, completion: completion)
    }
}
