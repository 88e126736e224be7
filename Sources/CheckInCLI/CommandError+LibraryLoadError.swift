import CheckInData

extension CommandError {
    /// A library that cannot be loaded is a broken installation: exit 69 (EX_UNAVAILABLE), what
    /// the stubs exit with when a command first needs one (CLibraryLoader).
    public init(_ error: LibraryLoadError) {
        self.init(.unavailable, error.description)
    }
}
