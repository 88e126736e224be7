import SharedSystem

extension CommandError {
    /// A library that cannot be loaded is a broken installation: exit 69 (EX_UNAVAILABLE), what
    /// the stubs exit with when a command first needs one (CLibraryLoader).
    public init(_ error: LibraryLoadError) {
        self.init(.unavailable, error.description)
    }
}

extension LoadedLibrary {
    /// Loads `libraries` before a long-running command (a daemon, the kiosk) starts its work,
    /// so a broken installation stops it at once with exit 69, not later from a stub.
    public static func require(_ libraries: [LoadedLibrary]) throws(CommandError) {
        do throws(LibraryLoadError) {
            for library in libraries { try library.load() }
        } catch {
            throw CommandError(error)
        }
    }
}
