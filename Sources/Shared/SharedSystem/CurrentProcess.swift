import Glibc

/// This process: its id, and its end.
public enum CurrentProcess {
    /// The process id (what `current.json` names, so readers can tell a live daemon).
    public static var id: Int32 { getpid() }

    /// Ends the process with `status`, flushing C's standard streams.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
