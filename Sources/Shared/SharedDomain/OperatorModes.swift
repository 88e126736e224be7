/// Whether a shake (SIGUSR1, `qrcheckin shake`) issues a fresh code at once. Shared: the
/// daemon keeps it, a kiosk's report carries it and the console's steer sets it.
public enum ShakeMode: String, CaseIterable, Sendable, Codable {
    case on, off
}

/// Whether codes rotate on their own or are paused (nothing shown).
public enum RefreshMode: String, CaseIterable, Sendable, Codable {
    case auto, paused
}
