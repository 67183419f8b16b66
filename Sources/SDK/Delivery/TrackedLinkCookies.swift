import SDKCore

/// The attribution a tracked link's redirect carries in its cookies
/// (`iterableEmailCampaignId`, `iterableTemplateId`, `iterableMessageId`).
struct TrackedLinkCookies {
    private var values: [String: String] = [:]

    /// Reads a `Set-Cookie` field (several cookies may be joined with commas).
    init(_ header: String) {
        for cookie in header.split(separator: ",") {
            guard let pair = cookie.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingWhitespace
            let value = pair[pair.index(after: equals)...].trimmingWhitespace
            values[name] = value
        }
    }

    /// The campaign, template and message, when all three are there and well formed (the
    /// message id within ``CallLimits/identifierBytes``).
    var attribution: AttributionInfo? {
        guard let campaign = values["iterableEmailCampaignId"].flatMap({ Int64($0) }),
              let template = values["iterableTemplateId"].flatMap({ Int64($0) }),
              let message = values["iterableMessageId"], !message.isEmpty, message.utf8.count <= CallLimits.identifierBytes else { return nil }
        return AttributionInfo(campaignID: campaign, templateID: template, messageID: message)
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
