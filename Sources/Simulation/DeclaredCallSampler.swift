import SDKCore

/// Makes any public call from its declaration alone, its arguments drawn by kind: the
/// simulator's stories carry every call the SDK declares, a call added tomorrow included,
/// beside the calls ``StoryGenerator`` shapes by hand.
///
/// Values are plausible and within the limits of ``CallLimits`` (the shaped steps and the
/// limit steps try the rest); an optional argument is left out now and then.
struct DeclaredCallSampler {
    var random: SimulationRandom

    /// The calls it draws from: every declared call the app makes, control calls aside (the
    /// stories make those as steps of their own: a switch, a flush, a privacy change).
    static let names = PublicCall.Name.allCases.filter { $0.switchBehavior != .control }

    /// A call of `name` with drawn arguments; nil when the declaration's arguments cannot be
    /// drawn (a project, another call's name), which `SimulationTests` would show as a call
    /// the stories never make.
    mutating func call(_ name: PublicCall.Name) -> PublicCall? {
        let declaration = name.declaration
        var values: [ArgumentValue] = []
        for argument in declaration.arguments {
            guard let value = value(for: argument) else { return nil }
            values.append(value)
        }
        return PublicCall(declaration, arguments: values)
    }

    private mutating func value(for argument: ArgumentDeclaration) -> ArgumentValue? {
        let leftOut = argument.presence == .optional && random.chance(0.2)
        switch argument.kind {
        case .email: return .text(leftOut ? nil : "user\(random.int(1...3))@sim.test")
        case .userID: return .text(leftOut ? nil : "user-\(random.int(1...3))")
        case .pushToken: return .text(leftOut ? nil : "token-\(random.int(1...3))")
        case .identifier: return .text(leftOut ? nil : "m\(random.int(1...4))")
        case .url: return .text(leftOut ? nil : "https://sim.test/\(random.int(1...3))")
        case .link: return .text(leftOut ? nil : "https://links.sim.test/a/\(random.int(1...3))")
        case .reason: return .text(leftOut ? nil : "declared")
        case .dataFields: return .dataFields(leftOut ? nil : ["n": .integer(Int64(random.int(1...9)))])
        case .items:
            return .items([CommerceItem(id: "sku-\(random.int(1...4))", name: "item", price: Double(random.int(1...99)), quantity: random.int(1...3))])
        case .messageCount: return .count(random.int(1...5))
        case .amount: return .amount(Double(random.int(1...500)))
        case .flag: return .flag(random.chance(0.5))
        case .pushOpen:
            return .pushOpen(PushOpen(campaignID: random.chance(0.8) ? 11 : nil, templateID: 12, messageID: "m\(random.int(1...4))",
                                      appAlreadyRunning: random.chance(0.5)))
        case .attribution: return .attribution(leftOut ? nil : AttributionInfo(campaignID: 7, templateID: 8, messageID: "m\(random.int(1...4))"))
        case .project, .callName: return nil
        }
    }
}
