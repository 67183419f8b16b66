import SDKCore

/// What a cached JWT is for: one project, one user (nil: requests made with no user known).
package struct JWTKey: Sendable, Hashable {
    package var project: ProjectFingerprint
    package var user: UserIdentity?
}
