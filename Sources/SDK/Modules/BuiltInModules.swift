/// The modules the SDK itself provides: in-app, embedded and push handling. Each is a module
/// like any other: it hears the instance's lifecycle, and the switch resets the first two.
public enum BuiltInModules {
    public static let inApp = "in-app"
    public static let embedded = "embedded"
    public static let push = "push"

    /// A fresh set of the built-in modules, for one SDK instance.
    public static func standard() -> [any SDKModule] {
        [LifecycleModule(name: inApp, notifications: ["foreground"]),
         LifecycleModule(name: embedded, notifications: ["foreground"]),
         LifecycleModule(name: push, notifications: [])]
    }
}
