import Journal

/// The value of one field of a fact (``FactField``), in the type the fact holds it in. The
/// codec, `replay`'s JSON and the ``Redactor`` handle a fact field by field through these: a
/// new case does not compile until each of them says what to do with it.
///
/// The values larger than a received call are boxed (`indirect`): a value is moved and copied
/// as often as a fact's fields are walked, and the enum is as large as its largest unboxed case.
package enum FactFieldValue: Sendable {
    // Numbers and times.
    /// A job, request, hook or instance number, a sequence number.
    case number(UInt64)
    /// A delivery attempt (written as a signed number).
    case attempt(Int)
    /// A duration in microseconds.
    case microseconds(Int64)
    case time(JournalTime)

    // Text.
    case text(String?)
    case texts([String])

    // Ids and projects.
    case call(CallID)
    case calls([CallID])
    case task(TaskID)
    case switchID(SwitchID)
    case fingerprint(ProjectFingerprint?)
    /// The project the gate executed a `track` call on, when its decision travels in the
    /// call's `eventBatched` record (format 1.3).
    case executedOn(ProjectFingerprint?)
    case project(ProjectRef)

    // The SDK's own composite values.
    case gateDecision(GateDecision)
    case callOutcome(CallOutcome)
    case taskOutcome(TaskOutcome)
    indirect case deliveryTask(DeliveryTask)
    case receivedCall(ReceivedCall)
    case publicCall(PublicCall)
    case timer(TimerPurpose)
    case retryReason(RetryReason)
    case routing(SwitchRouting)
    case teardownStep(TeardownStepKind)
    case stepOutcome(StepOutcome)
    case landing(SwitchResult)
    case moduleSignal(ModuleSignal)
    case durabilityWait(DurabilityWait)
    case attribution(AttributionInfo?)
    case batchedEvent(BatchedEvent)
    case messageKind(MessageKind)
    case storageScope(StorageScope)
    case backgroundTaskEnd(BackgroundTaskEnd)

    // Input payloads (a field numbered 0: the value is the whole record).
    indirect case engineStart(EngineStart)
    indirect case transportCompletion(TransportCompletion)
    case durabilityConfirmation(DurabilityConfirmation)
    case hookCompletion(ModuleHookCompletion)
    case authReceipt(AuthTokenReceipt)
    indirect case linkResolution(LinkResolution)
    indirect case erasure(LocalDataErasure)
    case journalGap(JournalGap)
}
