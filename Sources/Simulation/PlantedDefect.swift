/// A defect planted in the engine's environment (never in a story the generator draws): a test
/// runs a story with one to show that the simulator's checks find what it breaks.
package enum PlantedDefect: Sendable, Hashable {
    /// The engine never hears the answer to a request of this path (a lost completion): its
    /// task waits forever.
    case answersLost(path: String)
    /// The transport sends each request again on its own a minute later (its answer lost), as a
    /// transport that retries behind the SDK's back would: whatever the SDK decided meanwhile
    /// (an erasure, a declined consent), the copy leaves.
    case repeatsRequests
}
