/// Values numbered in the order they were first seen, so that many records can each keep a
/// small number for one of a few values (a project, a status) instead of the value.
struct InternedValues<Value: Hashable> {
    private var values: [Value] = []
    private var numbers: [Value: UInt32] = [:]
    /// The value last numbered: values come in runs (a project, a status), and comparing is
    /// cheaper than hashing.
    private var last: (value: Value, number: UInt32)?

    /// The number of `value`, given it now when it is new.
    mutating func number(of value: Value) -> UInt32 {
        if let last, last.value == value { return last.number }
        let number = numbers[value] ?? {
            let number = UInt32(values.count)
            values.append(value)
            numbers[value] = number
            return number
        }()
        last = (value, number)
        return number
    }

    /// The value numbered `number` (one ``number(of:)`` gave).
    subscript(number: UInt32) -> Value { values[Int(number)] }
}
