import Journal
import Testing
@testable import SDKCore

@Suite("Fact declarations", .timeLimit(.minutes(1)))
struct FactDeclarationTests {
    @Test("every kind has one declaration: its own kind, fields in number order, distinct numbers and keys")
    func declarations() {
        #expect(FactDeclaration.all.count == FactKind.allCases.count)
        for declaration in FactDeclaration.all {
            #expect(declaration.kind.declaration === declaration)
            let numbers = declaration.fields.map(\.number)
            #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "\(declaration.kind)")
            #expect(Set(declaration.fields.map(\.name)).count == declaration.fields.count, "\(declaration.kind)")
            #expect(declaration.jsonOrder.sorted() == Array(declaration.fields.indices), "\(declaration.kind)")
            // A payload field (number 0) is a fact's only field.
            #expect(!numbers.contains(0) || numbers == [0], "\(declaration.kind)")
            // Text fields say what their text is; other fields do not.
            for field in declaration.fields where field.text != nil {
                #expect(field.presence != .required, "\(declaration.kind).\(field.name): text fields are optional, defaulted or repeated")
            }
        }
    }

    @Test("a fact taken apart gives one value per declared field, and put back together is the same fact", arguments: 0..<4)
    func takenApartAndRebuilt(seed: Int) throws {
        var random = RandomFacts(seed: UInt64(100 + seed))
        var kinds = Set<FactKind>()
        for _ in 0..<2_000 {
            let fact = random.fact()
            guard let declaration = fact.declaration else { continue }
            kinds.insert(declaration.kind)
            var fields: [FactField] = []
            var values: [FactFieldValue] = []
            fact.forEachField { field, value in
                fields.append(field)
                values.append(value)
            }
            #expect(fields.map(\.number) == declaration.fields.map(\.number), "\(declaration.kind)")
            for (field, value) in zip(fields, values) {
                let isText = switch value {
                case .text, .texts: true
                default: false
                }
                #expect(isText == (field.text != nil), "\(declaration.kind).\(field.name): a text value in a field declared as text, and only there")
            }
            #expect(Fact(declaration, values: values) == fact, "\(declaration.kind)")
        }
        #expect(kinds.count == FactKind.allCases.count)
    }

    /// `gateDecision` and `forEachResolution` name the kinds they read rather than list every
    /// other one: this holds them to the values the declarations give each fact.
    @Test("a fact gives a gate decision or resolutions exactly when its declared values carry one")
    func decisionsAndResolutionsFollowTheDeclarations() {
        var random = RandomFacts(seed: 7)
        var decisions = 0, resolutions = 0
        for _ in 0..<5_000 {
            let fact = random.fact()
            var decision: GateDecision?, call: CallID?
            var calls: [CallID] = [], outcome: CallOutcome?
            fact.forEachField { _, value in
                switch value {
                case .gateDecision(let value): decision = value
                case .executedOn(let project?): decision = .executed(project: project)
                case .call(let value): call = value
                case .calls(let values): calls = values
                case .callOutcome(let value): outcome = value
                case .batchedEvent(let event): call = event.call
                default: break
                }
            }
            let kind = fact.declaration.map { "\($0.kind)" } ?? "unknown"
            #expect(fact.gateDecision?.decision == decision, "\(kind)")
            if decision != nil {
                decisions += 1
                #expect(fact.gateDecision?.call == call, "\(kind)")
            }
            let declared = outcome.map { outcome in (call.map { [$0] } ?? calls).map { ($0, outcome) } } ?? []
            let resolved = fact.resolutions
            #expect(resolved.map(\.call) == declared.map(\.0) && resolved.map(\.outcome) == declared.map(\.1), "\(kind)")
            resolutions += resolved.count
        }
        #expect(decisions > 100 && resolutions > 100)
    }

    @Test("redaction keeps every field declared structure or an identifier, and changes every personal text")
    func redactionFollowsTheDeclaration() {
        let redactor = Redactor(hash: KeyedHash(key: Array("fact-declaration-tests".utf8)))
        var random = RandomFacts(seed: 42)
        for _ in 0..<3_000 {
            let fact = random.fact()
            guard fact.declaration != nil else { continue }
            var original: [(FactField, FactFieldValue)] = []
            fact.forEachField { original.append(($0, $1)) }
            var redacted: [FactFieldValue] = []
            redactor.redact(fact).forEachField { _, value in redacted.append(value) }
            for ((field, before), after) in zip(original, redacted) {
                switch field.privacy {
                case .structural, .identifier:
                    #expect(Fact.fieldBytes(before, field) == Fact.fieldBytes(after, field), "\(FactCodec.kind(of: fact)).\(field.name)")
                case .personal where field.text != nil:
                    if case .text(let text?) = before, !text.isEmpty {
                        #expect(Fact.fieldBytes(before, field) != Fact.fieldBytes(after, field), "\(field.name) kept")
                    }
                case .personal, .freeText:
                    break
                }
            }
        }
    }

    @Test("the busiest kinds' direct decoding and redaction give what their declarations give")
    func busiestKinds() throws {
        let redactor = Redactor(hash: KeyedHash(key: Array("busiest".utf8)))
        var random = RandomFacts(seed: 9)
        var seen = 0
        for _ in 0..<6_000 {
            let fact = random.fact()
            guard let kind = FactKind(rawValue: FactCodec.kind(of: fact)), [.callReceived, .gateDecided, .eventBatched].contains(kind) else {
                continue
            }
            seen += 1
            let payload = FactCodec.payload(of: fact)
            #expect(redactor.redact(fact) == redactor.redactDeclared(fact), "\(kind)")
            // Whole and damaged payloads decode alike, or fail alike.
            for cut in [payload.count, 1, payload.count / 2, payload.count - 1] where cut > 0 && cut <= payload.count {
                let bytes = Array(payload[..<cut])
                let (direct, declared) = bytes.withUnsafeBytes { buffer in
                    var source = RecordFieldSource(FieldReader(buffer))
                    let direct = Result { () throws(CodecError) in try FactCodec.decodeBusiest(kind, buffer) }
                    let declared = Result { () throws(CodecError) in try Fact(kind, reading: &source) }
                    return (direct, declared)
                }
                #expect(direct == declared.map(Optional.some), "\(kind) cut at \(cut) of \(payload.count)")
            }
        }
        #expect(seen > 100)
    }
}

extension Fact {
    /// One field's bytes as the codec writes it: a value compared whatever its type.
    fileprivate static func fieldBytes(_ value: FactFieldValue, _ field: FactField) -> [UInt8] {
        FieldWriter.withScratch { writer in
            writer.write(value, as: field)
            return writer.bytes
        }
    }
}
