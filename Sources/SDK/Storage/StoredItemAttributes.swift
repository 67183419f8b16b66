/// What the SDK gives a file or directory it makes, from its ``SDKConfiguration``: a protection
/// class and whether backups skip it.
package struct StoredItemAttributes: Sendable, Equatable {
    /// The item's data protection class.
    package var protection: FileProtection
    /// Whether device backups (iCloud, a computer, Time Machine) leave the item out.
    package var excludedFromBackup: Bool

    package init(protection: FileProtection, excludedFromBackup: Bool) {
        self.protection = protection
        self.excludedFromBackup = excludedFromBackup
    }
}
