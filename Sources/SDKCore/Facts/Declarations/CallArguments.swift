/// A public call's argument values, in the order its ``CallDeclaration`` declares them. At most
/// three (the most any call takes), held inline: reading a call's arguments allocates nothing.
package struct CallArguments: Sendable, Hashable {
    private var first: ArgumentValue?
    private var second: ArgumentValue?
    private var third: ArgumentValue?
    package private(set) var count = 0

    package init() {}

    package init(_ values: ArgumentValue...) {
        for value in values { append(value) }
    }

    /// Adds the next argument. Traps past three: a declaration with a fourth argument needs
    /// a fourth slot here.
    package mutating func append(_ value: ArgumentValue) {
        switch count {
        case 0: first = value
        case 1: second = value
        case 2: third = value
        default: preconditionFailure("a call takes at most three arguments")
        }
        count += 1
    }

    package subscript(index: Int) -> ArgumentValue {
        get {
            precondition(index >= 0 && index < count, "argument \(index) of \(count)")
            switch index {
            case 0: return first!
            case 1: return second!
            default: return third!
            }
        }
        set {
            precondition(index >= 0 && index < count, "argument \(index) of \(count)")
            switch index {
            case 0: first = newValue
            case 1: second = newValue
            default: third = newValue
            }
        }
    }
}

extension CallArguments: RandomAccessCollection, MutableCollection {
    package var startIndex: Int { 0 }
    package var endIndex: Int { count }
}
