/// Port: whether a process still exists. Readers of `current.json` use it to tell a crashed
/// daemon (its document frozen on disk) from a running one.
public protocol ProcessLiveness: Sendable {
    /// Whether process `pid` exists (whether or not this process may signal it).
    func isAlive(pid: Int64) -> Bool
}
