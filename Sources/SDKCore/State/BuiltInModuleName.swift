/// The names of the modules the SDK itself provides. The core needs only the names (the switch
/// resets the in-app and embedded modules); the modules themselves are `SDK`'s `BuiltInModules`.
package enum BuiltInModuleName {
    package static let inApp = "in-app"
    package static let embedded = "embedded"
    package static let push = "push"
}
