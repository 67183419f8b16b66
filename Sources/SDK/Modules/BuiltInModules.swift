import SDKCore

/// The modules the SDK itself provides: in-app, embedded and push handling. Each is a module
/// like any other: it hears the instance's lifecycle, and the switch resets the first two.
public enum BuiltInModules {
    public static let inApp = BuiltInModuleName.inApp
    public static let embedded = BuiltInModuleName.embedded
    public static let push = BuiltInModuleName.push

    /// A fresh set of the built-in modules, for one SDK instance.
    public static func standard() -> [any SDKModule] {
        [LifecycleModule(name: inApp, notifications: ["foreground"]),
         LifecycleModule(name: embedded, notifications: ["foreground"]),
         LifecycleModule(name: push, notifications: [])]
    }
}
