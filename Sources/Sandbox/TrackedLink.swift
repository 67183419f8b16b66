/// A tracked link the sandbox serves at `/a/<code>`: a `303 See Other` to `destination`, with
/// the campaign, template and message it was sent for in cookies, as the platform's link
/// tracker answers. No API key is needed: a link is opened by whoever received it.
public struct TrackedLink: Sendable, Hashable {
    /// The link's code: it is served at `/a/<code>` (see ``SandboxBackend/trackedLinkURL(code:)``).
    public var code: String
    /// The project whose campaign the link belongs to (faults match it by this name).
    public var project: String
    /// Where the link redirects to: the `Location` of its 303.
    public var destination: String
    /// The campaign the link was sent for (the `iterableEmailCampaignId` cookie).
    public var campaignID: Int64
    /// The template the link was sent for (the `iterableTemplateId` cookie).
    public var templateID: Int64
    /// The message the link was sent in (the `iterableMessageId` cookie).
    public var messageID: String

    /// A tracked link; serve it with ``SandboxBackend/setTrackedLink(_:)``.
    public init(code: String, project: String, destination: String, campaignID: Int64, templateID: Int64, messageID: String) {
        self.code = code
        self.project = project
        self.destination = destination
        self.campaignID = campaignID
        self.templateID = templateID
        self.messageID = messageID
    }
}
