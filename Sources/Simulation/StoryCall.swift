import SDK

/// A public call a story makes. Projects are named by their index in
/// ``SimulatedProject/catalog``, so a story prints and shrinks without API keys.
package enum StoryCall: Sendable, Hashable {
    case initialize(project: Int)
    /// `switchProject`; when the switch's completion runs, the app makes `inCallback` (e.g.
    /// re-identifies the user), as the contract suggests apps do.
    case switchProject(project: Int, inCallback: PublicCall?)
    /// Any other public call, exactly as the SDK records it.
    case sdk(PublicCall)
}
