import Journal
import Testing
@testable import SDKCore

/// The values whose wire layout is declared (`ValueLayout`, `ValueVariant`): each writes the
/// bytes its hand-written encoder wrote (the writer calls below are those encoders'), reads
/// them back, and names the field or variant that bad input lacks.
@Suite("Declared value codecs", .timeLimit(.minutes(1)))
struct DeclaredValueCodecTests {
    private func bytes(_ write: (inout FieldWriter) -> Void) -> [UInt8] {
        FieldWriter.withScratch { writer in
            write(&writer)
            return writer.bytes
        }
    }

    private func decoded<Value: FieldCodable>(_ bytes: [UInt8], as type: Value.Type = Value.self) throws -> Value {
        try bytes.withUnsafeBytes { raw in
            var reader = FieldReader(raw)
            return try Value(from: &reader)
        }
    }

    private let project = ProjectFingerprint(apiKey: "k")
    private let call = CallID(high: 7, low: 9)

    @Test("a switch run: absent optionals and the default window left as they were written")
    func switchRun() throws {
        let to = ProjectRef(fingerprint: project, region: "eu", endpoint: "https://eu.test/", usesJWT: true, retry: RetryRules(), label: "b")
        let run = SwitchRun(id: SwitchID(4), from: nil, to: to, calls: [call], startedAt: JournalTime(microsecondsSince1970: -5), step: nil,
                            stepStartedAt: JournalTime(microsecondsSince1970: 8), warnings: ["w1", "w2"], stepProblems: [])
        let written = bytes { writer in
            writer.message(1, run.id)
            writer.message(2, run.from)
            writer.message(3, run.to)
            writer.messages(4, run.calls)
            writer.signed(5, run.startedAt.microsecondsSince1970)
            writer.message(6, run.step)
            writer.signed(7, run.stepStartedAt.microsecondsSince1970)
            writer.strings(8, run.warnings)
            writer.strings(9, run.stepProblems)
            writer.unsigned(10, run.firstTaskOfWindow)
        }
        #expect(run.encodedMessage() == written)
        #expect(try decoded(written, as: SwitchRun.self) == run)
    }

    @Test("a field written only when it is not its usual value, and a pair written only with a clock")
    func leftOutFields() throws {
        for refused in [false, true] {
            let receipt = AuthTokenReceipt(request: 3, project: project, failure: nil, refused: refused)
            let written = bytes { writer in
                writer.unsigned(1, receipt.request)
                writer.message(2, receipt.project)
                writer.string(3, receipt.failure)
                if receipt.refused { writer.bool(4, true) }
            }
            #expect(receipt.encodedMessage() == written)
            #expect(try decoded(written, as: AuthTokenReceipt.self) == receipt)
        }
        for clock in [nil, MonotonicReading(microseconds: 12, boot: nil), MonotonicReading(microseconds: -1, boot: 77)] {
            let start = EngineStart(sdkVersion: "9.9", restored: true, options: EngineRules(),
                                    modules: [ModuleDescriptor(name: "m", notifications: ["a", "b"])], clock: clock)
            let written = bytes { writer in
                writer.string(1, start.sdkVersion)
                writer.bool(2, start.restored)
                writer.message(3, start.options)
                writer.messages(4, start.modules)
                if let clock {
                    writer.signed(5, clock.microseconds)
                    writer.unsigned(6, clock.boot)
                }
            }
            #expect(start.encodedMessage() == written)
            #expect(try decoded(written, as: EngineStart.self) == start)
        }
    }

    @Test("a variant writes its tag, then its fields; an absent optional is not written")
    func variants() throws {
        let failure = CallFailure.httpStatus(404, code: nil, message: "gone")
        let written = bytes { writer in
            writer.unsigned(1, 3); writer.int(3, 404); writer.string(4, nil as String?); writer.string(5, "gone")
        }
        #expect(failure.encodedMessage() == written)
        #expect(try decoded(written, as: CallFailure.self) == failure)

        let expired = DiscardReason.expired(ageLimit: .milliseconds(1_500))
        let expiredBytes = bytes { writer in writer.unsigned(1, 7); writer.signed(4, 1_500) }
        #expect(expired.encodedMessage() == expiredBytes)
        #expect(try decoded(expiredBytes, as: DiscardReason.self) == expired)

        #expect(ModuleSignal.start.encodedMessage() == bytes { $0.unsigned(1, 2) })
        #expect(try decoded(bytes { $0.unsigned(1, 2) }, as: ModuleSignal.self) == .start)
    }

    /// Each value as written, with the writer calls of the hand-written encoder it replaced.
    private func expectWritten<Value: FieldCodable & Equatable>(_ cases: [(Value, (inout FieldWriter) -> Void)]) throws {
        for (value, write) in cases {
            let written = bytes(write)
            #expect(value.encodedMessage() == written, "\(value)")
            #expect(try decoded(written, as: Value.self) == value)
        }
    }

    @Test("a task's and a call's outcome write the tags and fields their old switches wrote")
    func outcomes() throws {
        try expectWritten([
            (TaskOutcome.delivered(status: 200), { $0.unsigned(1, 1); $0.int(2, 200) }),
            (.failed(.notInitialized), { $0.unsigned(1, 2); $0.message(3, CallFailure.notInitialized) }),
            (.discarded(.shutdown), { $0.unsigned(1, 3); $0.message(4, DiscardReason.shutdown) }),
        ])
        try expectWritten([
            (CallOutcome.delivered(project: project, status: 204), { $0.unsigned(1, 1); $0.message(2, project); $0.int(3, 204) }),
            (.applied(project: nil), { $0.unsigned(1, 2) }),
            (.applied(project: project), { $0.unsigned(1, 2); $0.message(2, project) }),
            (.failed(.rejected("no")), { $0.unsigned(1, 3); $0.message(4, CallFailure.rejected("no")) }),
            (.discarded(.queueFull(capacity: 3)), { $0.unsigned(1, 4); $0.message(5, DiscardReason.queueFull(capacity: 3)) }),
        ])
        // A call's outcome in its parts, and back: the project is a delivered one's alone.
        let elsewhere = ProjectFingerprint(apiKey: "other")
        for outcome in [CallOutcome.delivered(project: project, status: 201), .failed(.notDurable("disk")), .discarded(.erased)] {
            guard case .task(let ended, let deliveredTo) = outcome.parts else {
                Issue.record("\(outcome) is told as applied")
                continue
            }
            #expect(CallOutcome(ended, project: deliveredTo ?? elsewhere) == outcome)
        }
        #expect(try decoded(bytes { $0.unsigned(1, 1) }, as: TaskOutcome.self) == .delivered(status: 0))
        let unknown = try #require(throws: CodecError.self) { try decoded(bytes { $0.unsigned(1, 4) }, as: TaskOutcome.self) }
        #expect(unknown.reason == "unknown task outcome variant 4" && unknown.isUnknownVariant)
        #expect(throws: CodecError("required field project is missing", offset: 0)) {
            try decoded(bytes { $0.unsigned(1, 1); $0.int(3, 200) }, as: CallOutcome.self)
        }
    }

    /// `JournalTime` is declared; the gate's decision and a transport's completion stay hand-written (their codecs
    /// say why), their bytes pinned here beside the declared ones they carry.
    @Test("a time, the gate's decision and a transport's outcome and completion write the bytes the format says")
    func gateAndTransport() throws {
        let received = ReceivedCall(id: call, caller: 2, call: .track(event: "viewed", dataFields: ["n": 1]))
        try expectWritten([
            (GateDecision.executed(project: project), { $0.unsigned(1, 1); $0.message(2, project) }),
            (.queued(switch: SwitchID(4), position: 2, call: received),
             { $0.unsigned(1, 2); $0.message(3, SwitchID(4)); $0.int(4, 2); $0.message(5, received) }),
            (.replayed(switch: SwitchID(4), project: project), { $0.unsigned(1, 3); $0.message(3, SwitchID(4)); $0.message(2, project) }),
            (.inline(project: project), { $0.unsigned(1, 4); $0.message(2, project) }),
            (.refused, { $0.unsigned(1, 5) }),
        ])
        let response = TransportOutcome.response(status: 207, code: nil, messageIDs: ["a", "b"], message: "partly")
        try expectWritten([
            (response, { $0.unsigned(1, 1); $0.int(2, 207); $0.string(3, nil as String?); $0.strings(4, ["a", "b"]); $0.string(6, "partly") }),
            (.response(status: 400, code: "BadParams", messageIDs: [], message: nil),
             { $0.unsigned(1, 1); $0.int(2, 400); $0.string(3, "BadParams"); $0.strings(4, [String]()); $0.string(6, nil as String?) }),
            (.networkError("offline"), { $0.unsigned(1, 2); $0.string(5, "offline") }),
            (.notSent(.noAPIKey), { $0.unsigned(1, 3); $0.message(7, NotSentReason.noAPIKey) }),
        ])
        let refused = [RefusedEvent(index: 1, reason: "disallowed")]
        try expectWritten([
            (TransportCompletion(task: TaskID(3), attempt: 2, outcome: response),
             { $0.message(1, TaskID(3)); $0.int(2, 2); $0.message(3, response) }),
            (TransportCompletion(task: TaskID(3), attempt: 1, outcome: response, refusedEvents: refused, droppedMessageIDs: 5),
             { $0.message(1, TaskID(3)); $0.int(2, 1); $0.message(3, response); $0.messages(4, refused); $0.int(5, 5) }),
        ])
        try expectWritten([(JournalTime(microsecondsSince1970: -5), { $0.signed(1, -5) })])
        #expect(throws: CodecError("required field transport completion is missing", offset: 0)) {
            try decoded(bytes { $0.message(1, TaskID(3)) }, as: TransportCompletion.self)
        }
    }

    @Test("a retry's reason writes its tag and the fields its old switch wrote")
    func retryReasons() throws {
        let cases: [(RetryReason, (inout FieldWriter) -> Void)] = [
            (.noResponse("offline"), { $0.unsigned(1, 1); $0.string(2, "offline") }),
            (.serverBusy("503", failures: 2), { $0.unsigned(1, 2); $0.string(2, "503"); $0.int(3, 2) }),
            (.notSent(.noAPIKey), { $0.unsigned(1, 3); $0.message(4, NotSentReason.noAPIKey) }),
        ]
        for (reason, write) in cases {
            let written = bytes(write)
            #expect(reason.encodedMessage() == written)
            #expect(try decoded(written, as: RetryReason.self) == reason)
        }
        #expect(try decoded(bytes { $0.unsigned(1, 2) }, as: RetryReason.self) == .serverBusy("", failures: 0))
        #expect(throws: CodecError("required field why the attempt was not sent is missing", offset: 0)) {
            try decoded(bytes { $0.unsigned(1, 3) }, as: RetryReason.self)
        }
        let unknown = try #require(throws: CodecError.self) { try decoded(bytes { $0.unsigned(1, 9) }, as: RetryReason.self) }
        #expect(unknown.reason == "unknown retry reason variant 9" && unknown.isUnknownVariant)
    }

    @Test("an erasure writes the files left and their bytes together, only when a file was left; its counts bit for bit")
    func localDataErasure() throws {
        var left = JournalErasure(firstSequence: 3, lastSequence: 90, segments: 4, bytes: -1)
        left.segmentsLeft = 2
        left.bytesLeft = 0
        left.failure = "busy"
        var noneLeft = JournalErasure(firstSequence: 1, lastSequence: 0, segments: 0, bytes: 0)
        noneLeft.bytesLeft = 5
        for erasure in [LocalDataErasure(call: call, erased: left), LocalDataErasure(call: nil, erased: noneLeft),
                        .nothingErased(call: nil, failure: "no disk")] {
            let erased = erasure.erased
            let written = bytes { writer in
                if let call = erasure.call { writer.message(1, call) }
                writer.unsigned(2, erased.firstSequence)
                writer.unsigned(3, erased.lastSequence)
                writer.unsigned(4, UInt64(truncatingIfNeeded: erased.segments))
                writer.unsigned(5, UInt64(truncatingIfNeeded: erased.bytes))
                writer.string(6, erased.failure)
                if erased.segmentsLeft != 0 {
                    writer.unsigned(7, UInt64(truncatingIfNeeded: erased.segmentsLeft))
                    writer.unsigned(8, UInt64(truncatingIfNeeded: erased.bytesLeft))
                }
            }
            #expect(erasure.encodedMessage() == written)
            var read = erasure
            if erased.segmentsLeft == 0 { read.erased.bytesLeft = 0 }
            #expect(try decoded(written, as: LocalDataErasure.self) == read)
        }
        var empty = JournalErasure(firstSequence: 0, lastSequence: 0, segments: 0, bytes: 0)
        empty.failure = nil
        #expect(try decoded([], as: LocalDataErasure.self) == LocalDataErasure(call: nil, erased: empty))
    }

    @Test("commerce items: one message per item, in order")
    func commerceItems() throws {
        let items = [CommerceItem(id: "a", name: "A", price: 1.5, quantity: 2),
                     CommerceItem(id: "b", name: "B", price: 0, quantity: 1, sku: "s", dataFields: ["k": .integer(3)])]
        let written = bytes { $0.messages(1, items) }
        #expect(CommerceItems(items).encodedMessage() == written)
        #expect(try decoded(written, as: CommerceItems.self).items == items)
        #expect(try decoded([], as: CommerceItems.self).items.isEmpty)
    }

    @Test("a teardown step writes its tag alone, the old table's, and reads back; an unknown tag is an unknown variant")
    func teardownSteps() throws {
        let tags: [TeardownStepKind: UInt64] = [
            .disablePush: 1, .deliverPending: 2, .resetInApp: 3, .resetEmbedded: 4, .purgeQueue: 5,
            .clearIdentity: 6, .clearProjectStorage: 7, .releaseInstance: 8, .startInstance: 9,
        ]
        #expect(Set(tags.keys) == Set(TeardownStepKind.allCases))
        for (step, tag) in tags {
            let written = bytes { $0.unsigned(1, tag) }
            #expect(step.encodedMessage() == written)
            #expect(try decoded(written, as: TeardownStepKind.self) == step)
        }
        let unknown = try #require(throws: CodecError.self) { try decoded(bytes { $0.unsigned(1, 10) }, as: TeardownStepKind.self) }
        #expect(unknown.reason == "unknown teardown step variant 10" && unknown.isUnknownVariant)
    }

    @Test("bad input names the field it lacks, the variant it does not know, or the field of the wrong type")
    func badInput() throws {
        #expect(throws: CodecError("required field switch request is missing", offset: 0)) {
            try decoded([], as: SwitchRequest.self)
        }
        #expect(throws: CodecError("required field project is missing", offset: 0)) {
            try decoded(bytes { $0.unsigned(1, 1); $0.message(2, call) }, as: LinkJobEntry.self)
        }
        #expect(throws: CodecError("required field project is missing", offset: 0)) {
            try decoded(bytes { $0.unsigned(1, 7) }, as: ModuleSignal.self)
        }
        let unknown = try #require(throws: CodecError.self) { try decoded(bytes { $0.unsigned(1, 99) }, as: CallFailure.self) }
        #expect(unknown.reason == "unknown failure variant 99" && unknown.isUnknownVariant)
        let unnamed = try #require(throws: CodecError.self) { try decoded(bytes { $0.message(1, call) }, as: PendingCallEntry.self) }
        #expect(unnamed.reason == "unknown call name" && unnamed.isUnknownVariant)

        var secondFieldAt = 0
        let misTyped = bytes { writer in
            writer.message(1, TimerPurpose.moduleHookBound(hook: 3))
            secondFieldAt = writer.count
            writer.string(2, "not a time")
        }
        #expect(throws: CodecError("field 2 is not a varint", offset: secondFieldAt)) {
            try decoded(misTyped, as: TimerEntry.self)
        }
    }
}
