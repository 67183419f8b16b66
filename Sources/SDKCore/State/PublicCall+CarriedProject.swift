extension PublicCall {
    /// The project configuration the call carries (its key's fingerprint, region, endpoint and
    /// label): the value of its declaration's `.project` argument, initialize's and
    /// switchProject's; nil for every other call. A call declared without one needs nothing
    /// here; `CallDeclarationTests` holds this to the declarations.
    package var carriedProject: ProjectRef? {
        if case .control(.initialize(let project)) = self { return project }
        if case .control(.switchProject(let project)) = self { return project }
        return nil
    }
}
