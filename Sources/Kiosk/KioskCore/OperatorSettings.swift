import SharedDomain

/// What operators steer while the daemon runs; persisted across restarts.
public struct OperatorSettings: Equatable, Sendable {
    /// Shake mode (default on, like the seed's toggle).
    public var shake: ShakeMode
    /// Refresh mode (default auto).
    public var refresh: RefreshMode
    /// Who set a mode last, from where and when (nil: nobody since the defaults).
    public var change: ModeChange?

    /// Creates settings; the defaults are the embedded ones.
    public init(shake: ShakeMode = .on, refresh: RefreshMode = .auto, change: ModeChange? = nil) {
        self.shake = shake
        self.refresh = refresh
        self.change = change
    }
}

/// Port: where operator settings and the issue record survive restarts.
public protocol SettingsStore: Sendable {
    /// The saved state, or nil when none was saved yet.
    func load() throws(SettingsStoreError) -> SavedState?
    /// Saves `state`, replacing the old one atomically and durably (synced before it returns).
    func save(_ state: SavedState) throws(SettingsStoreError)
}

/// Saved settings could not be read or written; `message` names the file and the problem.
public struct SettingsStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line naming the file and what is wrong.
    public let message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
