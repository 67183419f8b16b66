/// A push notification the user opened, with the ids of the project that sent it.
public struct PushOpen: Sendable, Hashable {
    public var campaignID: Int64?
    public var templateID: Int64?
    public var messageID: String
    public var appAlreadyRunning: Bool
    public var dataFields: [String: DataValue]?

    public init(campaignID: Int64?, templateID: Int64?, messageID: String, appAlreadyRunning: Bool, dataFields: [String: DataValue]? = nil) {
        self.campaignID = campaignID
        self.templateID = templateID
        self.messageID = messageID
        self.appAlreadyRunning = appAlreadyRunning
        self.dataFields = dataFields
    }
}
