#if canImport(UIKit) && !os(watchOS)
import Foundation
import UIKit

/// Tells an ``EngagementSDK`` when the device's protected data becomes available, from
/// `UIApplication.protectedDataDidBecomeAvailableNotification`: keep one for as long as the SDK
/// runs (e.g. `let protectedData = UIKitProtectedDataObserver(sdk: sdk)` next to the SDK, made on
/// the main thread).
///
/// Each notification calls ``EngagementSDK/protectedDataDidBecomeAvailable()``, which opens the
/// files an SDK launched before the first unlock could not open (and does nothing otherwise).
/// Nothing here is compiled on Linux: it is the thinnest layer over that call, which the tests
/// make (docs/PLATFORMS.md, "Locked storage at launch").
@MainActor
public final class UIKitProtectedDataObserver {
    private let center: NotificationCenter
    // Not isolated: written only while `init` runs and read only by `deinit`, when nothing else
    // holds the object (an isolated deinit needs a newer runtime than the package's floor).
    nonisolated(unsafe) private var observer: NSObjectProtocol?

    /// Observes `center`'s protected-data notification for `sdk` until this object goes away.
    public init(sdk: EngagementSDK, center: NotificationCenter = .default) {
        self.center = center
        observer = center.addObserver(forName: UIApplication.protectedDataDidBecomeAvailableNotification, object: nil,
                                      queue: nil) { [sdk] _ in
            sdk.protectedDataDidBecomeAvailable()
        }
    }

    deinit {
        if let observer { center.removeObserver(observer) }
    }
}
#endif
