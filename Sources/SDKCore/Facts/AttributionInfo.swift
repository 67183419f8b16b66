/// Which campaign, template and message brought the user in (from a push or a deep link).
public struct AttributionInfo: Sendable, Hashable {
    public var campaignID: Int64
    public var templateID: Int64
    public var messageID: String

    public init(campaignID: Int64, templateID: Int64, messageID: String) {
        self.campaignID = campaignID
        self.templateID = templateID
        self.messageID = messageID
    }
}
