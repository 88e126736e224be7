import SharedDomain
import SharedHTTPClient

/// What happened to the reporter: the shell turns its clock, signals, the transport's results
/// and the daemon's state into these, with the time it read.
public enum ReporterEvent: Equatable, Sendable {
    /// The reporter starts; `previous` is the status an earlier run left (its last applied
    /// steer is remembered, so a steer is never applied twice).
    case started(previous: ReporterStatus?)
    /// The kiosk was looked at (every second).
    case observed(KioskObservation)
    /// A wake the core asked for came.
    case tick
    /// The exchange `id` ended.
    case completed(id: Int, HTTPResult)
    /// A steer was applied through the control socket (`outcome`: `ok` or the daemon's
    /// refusal), and the kiosk looked at again right after.
    case steerApplied(KioskReport.Applied, KioskObservation)
    /// SIGTERM or SIGINT: stop.
    case stop
}

/// What the reporter's core asks its shell to do, in order.
public enum ReporterEffect: Equatable, Sendable {
    /// Send a report (exchange `id`).
    case send(id: Int, OutgoingRequest)
    /// Abandon exchange `id` (a newer report replaces it).
    case cancel(id: Int)
    /// Apply a console steer through the daemon's control socket, then report `.steerApplied`.
    case apply(KioskSteer)
    /// Write the status document (and the reporter's metrics).
    case record(ReporterStatus)
    /// A log line.
    case log(LogLevel, String)
    /// Wake the core (`.tick`) at this monotonic time, milliseconds.
    case wake(atMonotonic: Int64)
    /// Exit.
    case exit
}
