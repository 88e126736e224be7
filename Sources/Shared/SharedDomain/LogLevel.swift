/// A log line's priority, numbered as syslog and journald number them: the one level type of
/// every layer (the daemon's decisions carry it, the logger writes it as `<N>` for journald).
public enum LogLevel: Int, CaseIterable, Equatable, Sendable {
    /// Something failed: a fatal start-up error, a write or reload that did not happen.
    case error = 3
    /// Something is wrong but the work goes on (an unsynchronised clock, refused peers).
    case warning = 4
    /// A normal but significant event (started, stopped, reloaded).
    case notice = 5
    /// Routine information (which secret is used, an operator's request).
    case info = 6
}
