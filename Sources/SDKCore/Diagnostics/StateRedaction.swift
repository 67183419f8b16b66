/// Redaction of the state's fields (``Redactor/redact(_:)-(SDKState)``): each as its privacy
/// class says, the way the facts' fields are redacted.
struct StateRedaction: StateFieldMapper {
    let redactor: Redactor

    func structural<Value>(_ value: Value) -> Value { value }
    func identifier<Value>(_ value: Value) -> Value { value }
    func text(_ value: String, _ kind: FactField.Text) -> String { redactor.redact(text: value, as: kind) }
    func personal(_ call: PublicCall) -> PublicCall { redactor.redact(call) }
    func personal(_ call: ReceivedCall) -> ReceivedCall { redactor.redact(call) }
    func personal(_ task: DeliveryTask) -> DeliveryTask { redactor.redact(task) }
    func transient<Value>(_ value: Value, empty: Value) -> Value { empty }
}
