import SharedDomain

/// What `DaemonEffectPerformer` performs the core's effects through: the daemon's real
/// adapters (libqrencode, libpng, files, the socket, sd_notify, the journal) or the tests'
/// in-memory ones. Each method does one thing and reports what became of it; none decides.
public protocol DaemonPorts: AnyObject {
    /// The renderer for a frame's look (its PNG scale and margin).
    func renderer(for look: OutputLook) -> any FrameRendering
    /// Where the outputs go, together or not at all.
    var outputs: any OutputSink { get }
    /// The node_exporter textfile directory `metrics.prom` is also copied into, if any.
    var metricsDirectory: String? { get }
    /// Copies `metrics.prom`'s bytes into `metricsDirectory` for `venue`.
    func copyMetrics(_ bytes: [UInt8], venue: String) throws(OutputSinkError)
    /// Where the settings and the issue record are saved.
    var store: any SettingsStore { get }
    /// Reads the configuration and the secret again: `.reloaded` or `.reloadFailed`.
    func reload() -> DaemonEvent
    /// Closes the control socket.
    func closeSocket()
    /// Binds the control socket again; the reason when it cannot.
    func rebindSocket() -> String?
    /// Sends a datagram to systemd.
    func notify(_ message: String)
    /// Writes one log line.
    func log(_ level: LogLevel, _ line: String)
    /// Arms the wall-clock timer; the reason when it cannot.
    func armTimer(at time: WallTime) -> String?
    /// Stops the loop: the daemon exits with `status`.
    func exit(_ status: DaemonExit)
    /// The wall-clock time now (each follow-up event is handled at the time it happens).
    func now() -> WallTime
}

/// How the daemon's loop ends.
public enum DaemonExit: Equatable, Sendable {
    /// Stopped as asked (SIGTERM, SIGINT): exit 0.
    case stopped
    /// The timer could not be armed: exit 70 (EX_SOFTWARE).
    case software
}

/// Turns a frame into the bytes of each output file it names, in the frame's order
/// (`OutputRenderer` in KioskViews; the core only asks for the bytes).
public protocol FrameRendering {
    /// The frame's files, rendered, in the frame's order.
    func files(for frame: OutputFrame) throws(OutputSinkError) -> [OutputContent]
}
