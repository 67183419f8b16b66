
/// Whom an effect acts for: a user and an instance (generation). A request is made for the user
/// its task was made for; other effects act for the user the SDK was identified as at the fact
/// that asked for them. Effects run after all of an input's decisions were made, so a task
/// dispatched before an `initialized` of the same input still belongs to the old instance.
package struct EffectOwner: Sendable, Hashable {
    package var user: UserIdentity?
    package var instance: UInt64

    package init(user: UserIdentity?, instance: UInt64) {
        self.user = user
        self.instance = instance
    }
}
