/// A collection a repeated field (``ValueField/init(repeated:_:_:_:)``) reads into: made empty,
/// appended to in the fields' order.
protocol RepeatedFieldValue: Sequence, SendableMetatype where Iterator: SendableMetatype {
    init()
    mutating func append(_ element: Element)
}

extension Array: RepeatedFieldValue {}

extension FIFO: RepeatedFieldValue {}
