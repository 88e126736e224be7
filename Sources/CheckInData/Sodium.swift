import CSodium

/// libsodium's one-time setup. A global `let` is initialised exactly once, thread-safely, on
/// first use (and sodium_init itself tolerates repeats); every libsodium adapter calls `ready()`.
enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    /// Initialises libsodium if needed; it only fails when the OS has no random source at all.
    static func ready() {
        precondition(initialized, "libsodium could not initialise (no OS random source?)")
    }
}
