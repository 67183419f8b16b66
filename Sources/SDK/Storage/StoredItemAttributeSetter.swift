/// Gives files and directories the SDK makes their ``StoredItemAttributes``. The SDK calls it for
/// its storage directory, its journal's directory and files (when it opens them) and each new
/// keyring file (before it replaces the old one), so that nothing it writes is ever unprotected
/// or backed up against the configuration. Tests substitute one that records the calls.
package protocol StoredItemAttributeSetter: Sendable {
    /// Applies `attributes` to the existing item at `path`. A directory passes its protection
    /// class on to the files created in it later; excluding it from backups excludes its contents.
    /// Throws a ``StoredItemAttributeError`` naming the path and the attribute when the system
    /// refuses.
    func apply(_ attributes: StoredItemAttributes, to path: String) throws(StoredItemAttributeError)
}
