import Foundation

/// The platform's own ways of applying ``StoredItemAttributes``: `FileProtectionType` through
/// `FileManager` on iOS, iPadOS, tvOS, watchOS and visionOS, and `isExcludedFromBackup` through
/// `URLResourceValues` on every Apple platform. On Linux both are documented no-ops: Linux has no
/// per-file protection classes and no backup flag a backup tool agrees on.
package struct SystemStoredItemAttributes: StoredItemAttributeSetter {
    package init() {}

    package func apply(_ attributes: StoredItemAttributes, to path: String) throws(StoredItemAttributeError) {
        #if canImport(Darwin)
        #if (os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)) && !targetEnvironment(macCatalyst)
        do {
            try FileManager.default.setAttributes([.protectionKey: Self.protectionType(attributes.protection)],
                                                  ofItemAtPath: path)
        } catch {
            throw StoredItemAttributeError(path: path, attribute: "file protection", reason: "\(error)")
        }
        #endif
        var url = URL(fileURLWithPath: path)
        var values = URLResourceValues()
        values.isExcludedFromBackup = attributes.excludedFromBackup
        do {
            try url.setResourceValues(values)
        } catch {
            throw StoredItemAttributeError(path: path, attribute: "backup exclusion", reason: "\(error)")
        }
        #endif
    }

    #if (os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)) && !targetEnvironment(macCatalyst)
    private static func protectionType(_ protection: FileProtection) -> FileProtectionType {
        switch protection {
        case .none: .none
        case .complete: .complete
        case .completeUnlessOpen: .completeUnlessOpen
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        }
    }
    #endif
}
