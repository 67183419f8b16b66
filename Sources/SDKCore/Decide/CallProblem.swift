/// Why a call's arguments are unusable (``CallValidation``), in words that name the argument.
struct CallProblem: Equatable {
    /// E.g. `email is not an email address (no @)`, `items[0].name: 3,145,728 bytes, at most 1,024`.
    /// At most ``FreeText/limit`` bytes, whatever the call held: a reason may name a data field's
    /// path, whose keys the app chose (cut with `…`).
    private(set) var reason: String
    /// Whether an argument is over its limit (``CallLimits``): the journal then records the
    /// call's name and this reason instead of the call, which may be of any size.
    private(set) var isOverLimit: Bool

    init(reason: String, isOverLimit: Bool) {
        self.reason = FreeText.bounded(reason)
        self.isOverLimit = isOverLimit
    }

    /// `field: 3,145,728 bytes, at most 1,024` (or another `unit`).
    static func overLimit(_ field: String, _ count: Int, _ unit: String, limit: Int) -> CallProblem {
        CallProblem(reason: "\(field): \(DigitGrouping.grouped(count)) \(unit), at most \(DigitGrouping.grouped(limit))", isOverLimit: true)
    }

    static func invalid(_ reason: String) -> CallProblem {
        CallProblem(reason: reason, isOverLimit: false)
    }
}
