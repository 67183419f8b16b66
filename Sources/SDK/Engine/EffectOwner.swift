
/// Whom an effect acts for: the user the SDK was identified as and its instance (generation)
/// at the fact that asked for the effect. Effects run after the whole batch of an input was
/// decided, so a task dispatched before an `initialized` of the same batch still belongs to the
/// old instance, and a request that waited for a JWT still belongs to whoever it was
/// dispatched for.
package struct EffectOwner: Sendable, Hashable {
    package var user: String?
    package var instance: UInt64

    package init(user: String?, instance: UInt64) {
        self.user = user
        self.instance = instance
    }
}
