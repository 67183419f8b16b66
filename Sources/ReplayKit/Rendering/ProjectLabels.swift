import SDK

/// The names an app gave its projects ("US", "EU brand B"), learned from the `ProjectRef`s a
/// journal carries: initialize and switchProject calls, `initialized`, `switchRouted` and
/// `switchStarted` facts, and each snapshot's projects. Renderings show a project as its
/// label beside its fingerprint (`US 1a2b3c4d5e6f7a8b`), or the fingerprint alone when the
/// journal never named it.
package struct ProjectLabels: Sendable {
    private(set) var labels: [ProjectFingerprint: String] = [:]

    package init() {}

    /// Learns the labels `record` carries (the latest label given to a fingerprint wins).
    package mutating func learn(from record: DecodedRecord) {
        switch record.content {
        case .snapshot(let state): learn(from: state)
        case .fact, .unreadable: Self.withProject(namedBy: record) { learn($0) }
        }
    }

    /// Learns the labels of the projects `state` knows.
    package mutating func learn(from state: SDKState) {
        for project in state.projects.values { learn(project) }
        if let live = state.live { learn(live) }
    }

    /// The project configuration (with its label) the fact of `record` carries
    /// (``withProject(namedBy:_:)``).
    static func project(namedBy record: DecodedRecord) -> ProjectRef? {
        var named: ProjectRef?
        withProject(namedBy: record) { named = $0 }
        return named
    }

    /// Whether the fact of `record` names a project (``withProject(namedBy:_:)``).
    static func namesProject(_ record: DecodedRecord) -> Bool {
        var named = false
        withProject(namedBy: record) { _ in named = true }
        return named
    }

    /// Hands `body` the project configuration (with its label) the fact of `record` carries:
    /// an initialize or switchProject call's, `initialized`'s, `switchRouted`'s or
    /// `switchStarted`'s. Read from the kinds that carry one, not a list of every other: a fact
    /// declared without a `ProjectRef` needs nothing here (`FactJSONDeclarationTests` holds this
    /// to the declarations). Read in place, and handed out rather than returned: a fact taken
    /// out of its record is a copy of all its parts, and most name none.
    @inline(__always)
    static func withProject(namedBy record: DecodedRecord, _ body: (ProjectRef) -> Void) {
        switch record.content {
        case .fact(.callReceived(let received)): if let project = received.call.carriedProject { body(project) }
        case .fact(.initialized(let project, _)), .fact(.switchRouted(_, _, let project, _)), .fact(.switchStarted(_, _, let project)):
            body(project)
        case .fact, .snapshot, .unreadable: break
        }
    }

    mutating func learn(_ project: ProjectRef) {
        if let label = project.label { labels[project.fingerprint] = label }
    }

    /// These labels with `later`'s learned after them (`later`'s win): what an audit that learned
    /// these and then `later`'s knows.
    package func overlaid(by later: ProjectLabels) -> ProjectLabels {
        if labels.allSatisfy({ later.labels[$0.key] != nil }) { return later }
        return ProjectLabels(labels: labels.merging(later.labels) { $1 })
    }

    private init(labels: [ProjectFingerprint: String]) {
        self.labels = labels
    }

    /// The projects the journal gave a label to.
    package var labelled: some Collection<ProjectFingerprint> { labels.keys }

    /// The label of `fingerprint`, if the journal gave it one.
    package func label(_ fingerprint: ProjectFingerprint?) -> String? {
        fingerprint.flatMap { labels[$0] }
    }

    /// `US 1a2b3c4d5e6f7a8b`, the fingerprint alone without a label, `-` for none.
    package func name(_ fingerprint: ProjectFingerprint?) -> String {
        guard let fingerprint else { return "-" }
        return labels[fingerprint].map { "\($0) \(fingerprint.hex)" } ?? fingerprint.hex
    }

    /// The label as JSON (null without one), for a `label` or `*_label` member.
    package func json(_ fingerprint: ProjectFingerprint?) -> JSONValue {
        .optional(label(fingerprint), JSONValue.string)
    }
}
