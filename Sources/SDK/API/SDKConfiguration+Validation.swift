import Foundation
import Journal
import SDKCore

extension SDKConfiguration {
    /// The range of each value ``validate()`` checks: wide enough for any app, narrow enough that
    /// no value can trap, spin or make a state too large for one snapshot record (the gate's and
    /// the queue's maxima are their defaults, which docs/ARCHITECTURE.md, "Bounds of the state",
    /// measures against the record limit).
    public enum Ranges {
        /// ``SDKConfiguration/journalSegmentBytes``: 1 KiB (the journal's least) to 1 GiB.
        public static let journalSegmentBytes = 1 << 10...1 << 30
        /// ``SDKConfiguration/journalSegmentRecords``: 16 (the journal's least) to 10,000,000.
        public static let journalSegmentRecords = 16...10_000_000
        /// ``SDKConfiguration/journalRetainedBytes``, when not nil: at least
        /// ``SDKConfiguration/journalSegmentBytes``, at most 1 TiB.
        public static let journalRetainedBytesMaximum = 1 << 40
        /// ``SDKConfiguration/journalRetentionAge``, when not nil: an hour to ten years (3,650 days).
        public static let journalRetentionAge = Duration.seconds(3_600)...Duration.seconds(3_650 * 86_400)
        /// ``SDKConfiguration/groupCommit``'s `maxRecords`.
        public static let groupCommitRecords = 1...65_536
        /// ``SDKConfiguration/groupCommit``'s `maxDelay`, when not nil: positive, at most an hour.
        public static let groupCommitDelayMaximum = Duration.seconds(3_600)
        /// `EngineRules.gateCapacity`, calls.
        public static let gateCapacity = 1...2_048
        /// `EngineRules.gateByteCapacity`.
        public static let gateByteCapacity = 1...256 << 10
        /// `EngineRules.queueCapacity`, events.
        public static let queueCapacity = 1...16_384
        /// `EngineRules.queueByteCapacity`.
        public static let queueByteCapacity = 1...3_328 << 10
        /// `EngineRules.bulkEventLimit`, events.
        public static let bulkEventLimit = 1...16_384
        /// `EngineRules.bulkByteLimit`: at most the queue's largest capacity.
        public static let bulkByteLimit = 1...3_328 << 10
        /// The bounds in milliseconds of `EngineRules` (`disableDurabilityBoundMilliseconds`,
        /// `moduleHookBoundMilliseconds`, `authProviderBoundMilliseconds`, and a
        /// `PendingEventsRule.deliverToOutgoing(timeoutMilliseconds:)`): 1 ms to an hour.
        public static let boundMilliseconds: ClosedRange<Int64> = 1...3_600_000
        /// `EngineRules.deliveryAgeLimitMilliseconds`: a minute to a year.
        public static let deliveryAgeLimitMilliseconds: ClosedRange<Int64> = 60_000...365 * 86_400_000
        /// ``SDKConfiguration/storageHoldCapacity``, inputs.
        public static let storageHoldCapacity = 1...16_384
        /// ``SDKConfiguration/storageHoldByteCapacity``: 1 KiB to 16 MiB.
        public static let storageHoldByteCapacity = 1 << 10...16 << 20
        /// ``SDKConfiguration/storageRetryInterval``: a second to an hour.
        public static let storageRetryInterval = Duration.seconds(1)...Duration.seconds(3_600)
    }

    /// Checks every value an ``EngagementSDK`` reads from this configuration against its range
    /// (``Ranges``, `CallLimits`): the journal's segment, retention and group-commit values, the
    /// engine's rules, the SDK version, the modules' names, versions and notification names,
    /// the region endpoints. Throws for the first value outside, naming it, its value and its
    /// range; never traps. ``EngagementSDK/init(configuration:)`` calls it first.
    public func validate() throws(ConfigurationError) {
        let role = Array(processRole.utf8)
        if !(1...32).contains(role.count) || !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(role[0])
            || !role.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }) {
            throw ConfigurationError(field: "processRole", value: "'\(processRole)'", allowed: "1 to 32 characters a-z, 0-9 and -, beginning with a letter")
        }
        try Self.check("journalSegmentBytes", journalSegmentBytes, within: Ranges.journalSegmentBytes, unit: "bytes")
        try Self.check("journalSegmentRecords", journalSegmentRecords, within: Ranges.journalSegmentRecords)
        if let retained = journalRetainedBytes {
            try Self.check("journalRetainedBytes", retained, within: journalSegmentBytes...Ranges.journalRetainedBytesMaximum, unit: "bytes",
                           allowed: "journalSegmentBytes (\(DigitGrouping.grouped(journalSegmentBytes)))...\(DigitGrouping.grouped(Ranges.journalRetainedBytesMaximum)) bytes, or nil")
        }
        if let age = journalRetentionAge, !Ranges.journalRetentionAge.contains(age) {
            throw ConfigurationError(field: "journalRetentionAge", value: "\(age)", allowed: "1 hour...3,650 days, or nil")
        }
        try Self.check("groupCommit.maxRecords", groupCommit.maxRecords, within: Ranges.groupCommitRecords)
        if let delay = groupCommit.maxDelay, !(delay > .zero && delay <= Ranges.groupCommitDelayMaximum) {
            throw ConfigurationError(field: "groupCommit.maxDelay", value: "\(delay)", allowed: "more than 0 seconds, at most 1 hour, or nil")
        }
        try validateRules()
        try Self.check("storageHoldCapacity", storageHoldCapacity, within: Ranges.storageHoldCapacity)
        try Self.check("storageHoldByteCapacity", storageHoldByteCapacity, within: Ranges.storageHoldByteCapacity, unit: "bytes")
        if !Ranges.storageRetryInterval.contains(storageRetryInterval) {
            throw ConfigurationError(field: "storageRetryInterval", value: "\(storageRetryInterval)", allowed: "1 second...1 hour")
        }
        try Self.checkText("sdkVersion", sdkVersion, limit: CallLimits.sdkVersionBytes)
        try validateModules()
        for (name, url) in [("regionEndpoints.us", regionEndpoints.us), ("regionEndpoints.eu", regionEndpoints.eu)] {
            let text = url.absoluteString
            try Self.checkText(name, text, limit: CallLimits.urlBytes)
            guard text.hasPrefix("https://") || text.hasPrefix("http://") else {
                throw ConfigurationError(field: name, value: text, allowed: "an http(s) URL")
            }
        }
        for (index, project) in knownProjects.enumerated() {
            if let problem = project.config.retryPolicy.problem {
                throw ConfigurationError(field: "knownProjects[\(index)].config", value: problem, allowed: "each value within its range (RetryRules)")
            }
        }
    }

    private func validateRules() throws(ConfigurationError) {
        try Self.check("rules.gateCapacity", rules.gateCapacity, within: Ranges.gateCapacity, unit: "calls")
        try Self.check("rules.gateByteCapacity", rules.gateByteCapacity, within: Ranges.gateByteCapacity, unit: "bytes")
        try Self.check("rules.queueCapacity", rules.queueCapacity, within: Ranges.queueCapacity, unit: "events")
        try Self.check("rules.queueByteCapacity", rules.queueByteCapacity, within: Ranges.queueByteCapacity, unit: "bytes")
        try Self.check("rules.bulkEventLimit", rules.bulkEventLimit, within: Ranges.bulkEventLimit, unit: "events")
        try Self.check("rules.bulkByteLimit", rules.bulkByteLimit, within: Ranges.bulkByteLimit, unit: "bytes")
        try Self.check("rules.disableDurabilityBoundMilliseconds", rules.disableDurabilityBoundMilliseconds, within: Ranges.boundMilliseconds, unit: "ms")
        try Self.check("rules.moduleHookBoundMilliseconds", rules.moduleHookBoundMilliseconds, within: Ranges.boundMilliseconds, unit: "ms")
        try Self.check("rules.authProviderBoundMilliseconds", rules.authProviderBoundMilliseconds, within: Ranges.boundMilliseconds, unit: "ms")
        try Self.check("rules.deliveryAgeLimitMilliseconds", rules.deliveryAgeLimitMilliseconds, within: Ranges.deliveryAgeLimitMilliseconds, unit: "ms")
        switch rules.pendingEvents {
        case .purge, .keepForOutgoing:
            break
        case .deliverToOutgoing(let timeout):
            try Self.check("rules.pendingEvents.deliverToOutgoing.timeoutMilliseconds", timeout, within: Ranges.boundMilliseconds, unit: "ms")
        }
    }

    private func validateModules() throws(ConfigurationError) {
        try Self.check("modules.count", modules.count, within: 0...CallLimits.modules, unit: "modules")
        var names = Set<String>()
        for (index, module) in modules.enumerated() {
            let info = module.info
            try Self.checkText("modules[\(index)].info.name", info.name, limit: CallLimits.moduleNameBytes)
            guard names.insert(info.name).inserted else {
                throw ConfigurationError(field: "modules[\(index)].info.name", value: "\"\(info.name)\"", allowed: "a name no other module has")
            }
            try Self.checkText("modules[\(index)].info.version", info.version, limit: CallLimits.moduleNameBytes, allowsEmpty: true)
            let notifications = module.notificationNames
            try Self.check("modules[\(index)].notificationNames.count", notifications.count, within: 0...CallLimits.notificationNamesPerModule,
                           unit: "names")
            for (position, name) in notifications.enumerated() {
                try Self.checkText("modules[\(index)].notificationNames[\(position)]", name, limit: CallLimits.notificationNameBytes)
            }
        }
    }

    /// `value` within `range`, else an error naming `field`.
    private static func check<Value: BinaryInteger>(_ field: String, _ value: Value, within range: ClosedRange<Value>, unit: String = "",
                                                    allowed: String? = nil) throws(ConfigurationError) {
        guard !range.contains(value) else { return }
        let suffix = unit.isEmpty ? "" : " " + unit
        throw ConfigurationError(field: field, value: DigitGrouping.grouped(value) + suffix,
                                 allowed: allowed ?? "\(DigitGrouping.grouped(range.lowerBound))...\(DigitGrouping.grouped(range.upperBound))\(suffix)")
    }

    /// A text the SDK journals or sends in a header: not empty (unless `allowsEmpty`), at most
    /// `limit` bytes of UTF-8, no control character.
    private static func checkText(_ field: String, _ text: String, limit: Int, allowsEmpty: Bool = false) throws(ConfigurationError) {
        let bytes = text.utf8.count
        let allowed = "\(allowsEmpty ? 0 : 1)...\(DigitGrouping.grouped(limit)) bytes of UTF-8, no control character"
        if bytes > limit { throw ConfigurationError(field: field, value: "\(DigitGrouping.grouped(bytes)) bytes", allowed: allowed) }
        if bytes == 0 && !allowsEmpty { throw ConfigurationError(field: field, value: "empty", allowed: allowed) }
        if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw ConfigurationError(field: field, value: "a text with a control character", allowed: allowed)
        }
    }
}
