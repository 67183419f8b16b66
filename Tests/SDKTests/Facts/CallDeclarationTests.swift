import FuzzHarness
import Journal
import Testing
@testable import SDK
@testable import SDKCore

/// The call declarations are the one place a call is described: these check that the table is
/// whole and consistent, and that the codec, validation and redaction derived from it do what
/// each declared kind says.
@Suite("Call declarations", .timeLimit(.minutes(1)))
struct CallDeclarationTests {
    @Test("every call name has one declaration; tags are unique, 1 to N; field numbers are unique within a call")
    func tableIsWhole() {
        #expect(CallDeclaration.all.count == PublicCall.Name.allCases.count + 1)
        for name in PublicCall.Name.allCases {
            #expect(name.declaration.name == name)
        }
        let tags = CallDeclaration.all.map(\.tag).sorted()
        #expect(tags == Array(1...UInt64(tags.count)))
        for declaration in CallDeclaration.all {
            #expect(CallDeclaration.tagged(declaration.tag)?.tag == declaration.tag)
            let numbers = declaration.arguments.map(\.number)
            #expect(Set(numbers).count == numbers.count, "\(declaration.name)")
            #expect(!numbers.contains(1), "field 1 is the tag: \(declaration.name)")
        }
        #expect(CallDeclaration.tagged(0) == nil)
        #expect(CallDeclaration.tagged(UInt64(tags.count + 1)) == nil)
    }

    @Test("every sample call survives the journal's codec, arguments and all")
    func samplesRoundTrip() throws {
        for (index, call) in SampleCalls.all.enumerated() {
            let fact = Fact.callReceived(ReceivedCall(id: FixtureStory.callID(UInt64(index) + 1), caller: 1, call: call))
            let decoded = try FactCodec.decode(kind: FactCodec.kind(of: fact), payload: FactCodec.payload(of: fact))
            #expect(decoded == fact)
            #expect(PublicCall(call.declaration, arguments: call.arguments) == call)
        }
    }

    @Test("a call carries a project exactly when its declaration has a project argument")
    func carriedProjectFollowsTheDeclarations() {
        for call in SampleCalls.all {
            var declared: ProjectRef?
            for (argument, value) in zip(call.declaration.arguments, call.arguments) where argument.kind == .project {
                if case .project(let project) = value { declared = project }
            }
            #expect(call.carriedProject == declared, "\(call.name)")
        }
        #expect(SampleCalls.all.contains { $0.carriedProject != nil })
    }

    @Test("inAppFetch alone is declared with a count (replay's OverflowGuard bounds it by name)")
    func countsAreBoundedByName() {
        let counted = CallDeclaration.all.filter { $0.arguments.contains { $0.kind == .messageCount } }.map(\.name)
        #expect(counted == [.inAppFetch], "bound each new count in OverflowGuard.check(_: PublicCall), then list it here")
    }

    @Test("a track call's direct encoding is the bytes its declaration lays out")
    func trackFastPathIsTheDeclaredLayout() {
        let tracks = SampleCalls.all.filter { $0.name == .track } + [
            .track(event: "", dataFields: [:]),
            .track(event: "é", dataFields: ["k": .array([1, "two", nil])]),
        ]
        #expect(tracks.count >= 4)
        for call in tracks {
            let declared = FieldWriter.withScratch { writer in
                call.encodeDeclared(to: &writer)
                return writer.bytes
            }
            #expect(call.encodedMessage() == declared)
        }
    }

    @Test("a track record's direct reading is the call its declaration reads")
    func trackFastReadIsTheDeclaredReading() {
        let tracks = SampleCalls.all.filter { $0.name == .track } + [.track(event: "é", dataFields: ["k": .array([1, "two", nil])])]
        for call in tracks {
            let read = call.encodedMessage().withUnsafeBytes { buffer -> [PublicCall?] in
                var direct = FieldReader(buffer)
                var declared = FieldReader(buffer)
                return [Self.read { () throws(CodecError) in try PublicCall(from: &direct) },
                        Self.read { () throws(CodecError) in try PublicCall(declaredFields: try VariantFields(&declared)) }]
            }
            #expect(read == [call, call])
        }
    }

    private static func read(_ body: () throws(CodecError) -> PublicCall) -> PublicCall? {
        do throws(CodecError) {
            return try body()
        } catch {
            return nil
        }
    }

    @Test("a record whose tag no declaration has is an unknown call, not a crash")
    func unknownTag() {
        let bytes = FieldWriter.withScratch { writer in
            writer.unsigned(1, 99)
            writer.string(3, "x")
            return writer.bytes
        }
        let error = bytes.withUnsafeBytes { buffer -> CodecError? in
            var reader = FieldReader(buffer)
            do throws(CodecError) {
                _ = try PublicCall(from: &reader)
                return nil
            } catch {
                return error
            }
        }
        #expect(error?.reason.contains("unknown call variant 99") == true, "\(String(describing: error))")
    }

    @Test("a call has a request exactly as its declaration says: none, a POST to its path, or one RequestBody builds")
    func requestsFollowTheDeclarations() {
        let identity = RequestBody.Identity(email: "ada@example.com", userID: nil)
        for call in SampleCalls.all {
            let request = RequestBody.make(for: call, identity: identity, pushToken: "token", time: JournalTime(microsecondsSince1970: 1), sdkVersion: "1")
            switch call.declaration.request {
            case .none: #expect(request == nil, "\(call.name) declares no request")
            case .post(let path): #expect(request?.path == path && request?.method == .post, "\(call.name) declares a POST to \(path)")
            case .built(let shape): #expect(request != nil, "\(call.name) declares a request of shape \(shape), and RequestBody builds none for it")
            }
        }
    }

    @Test("every full sample is valid, and every text argument over its limit is rejected, naming the argument")
    func limitsFollowTheDeclarations() {
        for declaration in CallDeclaration.all where declaration.tag != CallDeclaration.oversized.tag {
            let call = SampleCalls.call(declaration, absent: false)
            #expect(CallValidation.problem(in: call) == nil, "\(call)")
            for (index, argument) in declaration.arguments.enumerated() {
                guard let limit = argument.kind.byteLimit else { continue }
                var values = call.arguments
                let long = argument.kind == .email ? String(repeating: "a", count: limit) + "@x" : String(repeating: "a", count: limit + 1)
                values[index] = .text(long)
                let over = PublicCall(declaration, arguments: values)!
                let problem = CallValidation.problem(in: over)
                #expect(problem?.isOverLimit == true, "\(declaration.name).\(argument.name)")
                #expect(problem?.reason.hasPrefix(argument.name) == true, "\(problem?.reason ?? "nil")")
            }
        }
    }

    @Test("redaction follows each argument's privacy class: personal values and addresses in free text leave no trace; identifiers stay")
    func redactionFollowsPrivacy() {
        let redactor = Redactor(hash: KeyedHash(key: Array(repeating: 7, count: 32)))
        for declaration in CallDeclaration.all {
            var values = SampleCalls.call(declaration, absent: false).arguments
            for (index, argument) in declaration.arguments.enumerated() where argument.kind.byteLimit != nil || argument.kind == .reason {
                values[index] = .text(argument.kind == .email ? "secret-\(index)@example.com" : "see secret-\(index)@example.com")
            }
            let call = PublicCall(declaration, arguments: values)!
            let redacted = redactor.redact(call)
            #expect(redacted.name == call.name)
            let text = String(describing: redacted)
            for (index, argument) in declaration.arguments.enumerated() {
                switch argument.privacy {
                case .personal, .freeText:
                    if argument.kind.byteLimit != nil || argument.kind == .reason {
                        #expect(!text.contains("secret-\(index)@"), "\(declaration.name).\(argument.name): \(text)")
                    }
                case .identifier, .structural:
                    #expect(redacted.arguments[index] == call.arguments[index], "\(declaration.name).\(argument.name)")
                }
            }
        }
    }
}
