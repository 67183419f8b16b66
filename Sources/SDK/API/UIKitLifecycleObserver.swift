#if canImport(UIKit) && !os(watchOS)
import Foundation
import UIKit

/// Reports the app's phases to an ``EngagementSDK`` from `UIApplication`'s notifications: keep one
/// for as long as the SDK runs (e.g. `let lifecycle = UIKitLifecycleObserver(sdk: sdk)` next to
/// the SDK, made on the main thread).
///
/// On `didEnterBackgroundNotification` it begins a `UIApplication` background task and hands its
/// time to ``EngagementSDK/applicationDidEnterBackground(_:)`` (which gives it back when its flush
/// is done or before it runs out); on `willEnterForegroundNotification` it calls
/// ``EngagementSDK/applicationWillEnterForeground()``. If the system's expiration handler runs
/// first, the SDK hears it (journaled) and the task ends in the handler, as UIKit requires.
/// Nothing here is compiled on Linux: it is the thinnest layer over those two calls, which the
/// tests make (docs/PLATFORMS.md, "Background time").
@MainActor
public final class UIKitLifecycleObserver {
    private let sdk: EngagementSDK
    private let center: NotificationCenter
    // Not isolated: written only while `init` runs and read only by `deinit`, when nothing else
    // holds the object (an isolated deinit needs a newer runtime than the package's floor).
    nonisolated(unsafe) private var observers: [NSObjectProtocol] = []

    /// Observes `center`'s `UIApplication` notifications for `sdk` until this object goes away.
    public init(sdk: EngagementSDK, center: NotificationCenter = .default) {
        self.sdk = sdk
        self.center = center
        observers.append(center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { [weak self] _ in
            MainActor.assumeIsolated { self?.didEnterBackground() }
        })
        observers.append(center.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main) { [sdk] _ in
            sdk.applicationWillEnterForeground()
        })
    }

    deinit {
        for observer in observers { center.removeObserver(observer) }
    }

    private func didEnterBackground() {
        let application = UIApplication.shared
        let task = UIKitBackgroundTask()
        task.identifier = application.beginBackgroundTask(withName: "EngagementSDK") {
            // On the main thread, just before the time runs out.
            MainActor.assumeIsolated {
                task.time?.expire()
                task.end()
            }
        }
        guard task.identifier != .invalid else { return sdk.applicationDidEnterBackground(nil) }
        // Right after the app left the foreground the system reports what it allows (about 30 s);
        // a reading that is not finite (the app is still in the foreground) counts as 30 s.
        let remaining = application.backgroundTimeRemaining
        let seconds = remaining.isFinite && remaining < 600 ? remaining : 30
        let time = BackgroundTime(budget: .milliseconds(Int64(seconds * 1_000))) {
            // From the SDK's engine thread: UIApplication is the main thread's.
            DispatchQueue.main.async { MainActor.assumeIsolated { task.end() } }
        }
        task.time = time
        sdk.applicationDidEnterBackground(time)
    }
}

/// One `UIApplication` background task, ended once, on the main thread.
@MainActor
private final class UIKitBackgroundTask {
    var identifier: UIBackgroundTaskIdentifier = .invalid
    var time: BackgroundTime?

    func end() {
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
        time = nil
    }
}
#endif
