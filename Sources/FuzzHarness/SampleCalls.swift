import SDK

/// Calls of every declared kind, built from their declarations (``CallDeclaration``): each
/// argument a sample of its kind, then the same call with every optional argument absent and
/// every defaulted one empty. A new call has samples as soon as it is declared.
package enum SampleCalls {
    /// Two calls per declaration (one when the call has no optional argument), in declaration order.
    package static var all: [PublicCall] {
        CallDeclaration.all.flatMap { declaration in
            let full = call(declaration, absent: false)
            let sparse = call(declaration, absent: true)
            return full == sparse ? [full] : [full, sparse]
        }
    }

    /// The call `declaration` declares, with sample arguments; with `absent`, optional ones nil
    /// and defaulted ones empty.
    package static func call(_ declaration: CallDeclaration, absent: Bool) -> PublicCall {
        var values: [ArgumentValue] = []
        for argument in declaration.arguments {
            let leftOut = absent && argument.presence != .required
            values.append(leftOut ? empty(argument) : sample(of: argument.kind))
        }
        guard let call = PublicCall(declaration, arguments: values) else {
            preconditionFailure("\(declaration.name): samples do not fit the declaration")
        }
        return call
    }

    /// A usable value of `kind`, within every limit.
    package static func sample(of kind: ArgumentKind) -> ArgumentValue {
        switch kind {
        case .email: .text("ada@example.com")
        case .userID: .text("user-1")
        case .pushToken: .text("push-token-1")
        case .identifier: .text("viewed")
        case .url: .text("https://example.com/offer?ref=mail")
        case .link: .text("https://links.example.com/a/x1")
        case .reason: .text("items: 501 items, at most 500")
        case .dataFields:
            .dataFields(["plan": "pro", "seats": 3, "ratio": 0.5, "tags": ["a", "b"], "trial": false, "coupon": nil,
                         "address": ["zip": "69001"]])
        case .items:
            .items([CommerceItem(id: "sku-1", name: "Mug", price: 12.5, quantity: 2, sku: "MUG-1", dataFields: ["color": "blue"])])
        case .messageCount: .count(2)
        case .amount: .amount(25.5)
        case .flag: .flag(true)
        case .project: .project(FixtureStory.us)
        case .pushOpen:
            .pushOpen(PushOpen(campaignID: 5, templateID: 6, messageID: "push-1", appAlreadyRunning: true, dataFields: ["n": 1]))
        case .attribution: .attribution(AttributionInfo(campaignID: 1, templateID: 2, messageID: "a-1"))
        case .callName: .callName(.updateCart)
        }
    }

    /// The value an absent optional argument has (nil), or a defaulted one reads as (empty).
    private static func empty(_ argument: ArgumentDeclaration) -> ArgumentValue {
        let defaulted = argument.presence == .defaulted
        switch argument.kind {
        case .email, .userID, .pushToken, .identifier, .url, .link, .reason: return .text(defaulted ? "" : nil)
        case .dataFields: return .dataFields(defaulted ? [:] : nil)
        case .items: return .items([])
        case .messageCount: return .count(0)
        case .amount: return .amount(0)
        case .flag: return .flag(false)
        case .attribution: return .attribution(nil)
        case .project, .pushOpen, .callName: return sample(of: argument.kind)
        }
    }
}
