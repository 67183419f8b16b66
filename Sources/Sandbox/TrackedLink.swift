/// A tracked link the sandbox serves at `/a/<code>`: a `303 See Other` to `destination`, with
/// the campaign, template and message it was sent for in cookies, as the platform's link
/// tracker answers. No API key is needed: a link is opened by whoever received it.
public struct TrackedLink: Sendable, Hashable {
    public var code: String
    /// The project whose campaign the link belongs to (faults match it by this name).
    public var project: String
    public var destination: String
    public var campaignID: Int64
    public var templateID: Int64
    public var messageID: String

    public init(code: String, project: String, destination: String, campaignID: Int64, templateID: Int64, messageID: String) {
        self.code = code
        self.project = project
        self.destination = destination
        self.campaignID = campaignID
        self.templateID = templateID
        self.messageID = messageID
    }
}
