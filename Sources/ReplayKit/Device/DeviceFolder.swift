import Foundation
import Journal

/// A device folder: the journals of one install's processes side by side, as the SDK lays them
/// out in a storage directory shared by an app and its extensions (`SDKConfiguration.processRole`):
/// `journal/` for the app, `journal-ROLE/` for each other process (docs/FORMAT.md, "A device
/// folder"). `replay timeline`, `audit` and `report` read one as a single timeline, a lane per
/// process (``DeviceMerge``).
///
/// A directory that holds segment files itself is a journal, never a device folder: a single
/// journal reads exactly as before.
package struct DeviceFolder: Sendable {
    /// One process's journal.
    package struct Lane: Sendable {
        /// The process's role: `app`, `widget`, ...
        package var role: String
        /// The journal's directory.
        package var path: String
    }

    /// The folder's path.
    package let path: String
    /// Its journals: the app's first, then the other roles by name.
    package let lanes: [Lane]

    /// The role of the app's own process, whose journal is `journal/`.
    package static let appRole = "app"

    /// The device folder at `path`, or nil when it is not one: `-`, not a directory, a journal
    /// itself (it holds segment files), or no `journal` / `journal-ROLE` subdirectory holding
    /// segment files.
    package static func open(_ path: String) -> DeviceFolder? {
        guard path != "-", !FleetExport.holdsSegments(path) else { return nil }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        var lanes: [Lane] = []
        for name in names {
            guard let role = role(ofDirectoryName: name) else { continue }
            let lane = path + "/" + name
            if FleetExport.holdsSegments(lane) { lanes.append(Lane(role: role, path: lane)) }
        }
        guard !lanes.isEmpty else { return nil }
        lanes.sort { ($0.role == appRole ? 0 : 1, $0.role) < ($1.role == appRole ? 0 : 1, $1.role) }
        return DeviceFolder(path: path, lanes: lanes)
    }

    /// The role a journal directory's name gives: `journal` is the app's, `journal-ROLE` is
    /// ROLE's (the SDK's rule: a letter, then letters, digits and `-`, at most 32); nil for any
    /// other name.
    package static func role(ofDirectoryName name: String) -> String? {
        if name == "journal" { return appRole }
        guard name.hasPrefix("journal-") else { return nil }
        let role = name.dropFirst("journal-".count)
        guard (1...32).contains(role.utf8.count), let first = role.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
              role.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") })
        else { return nil }
        return String(role)
    }

    /// The widest role's length (for a column of roles).
    package var roleWidth: Int { lanes.map(\.role.count).max() ?? 0 }
}
