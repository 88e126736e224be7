/// A long-running part of a program (a listener, a database's writer, a schedule), run by a
/// `ServiceGroup`: swift-service-lifecycle's `Service`. `run()` does the work until the group
/// asks it to stop through the task-local graceful shutdown (`gracefulShutdown()`,
/// `withGracefulShutdownHandler`), then finishes the work under way and returns; cancellation
/// (at the group's deadline) means stop now.
public protocol Service: Sendable {
    /// Its name in the logs and in the group's report (`HTTP listener`).
    var name: String { get }
    /// Runs until asked to stop gracefully, or cancelled. Returning or throwing before that ends
    /// the whole group (`ServiceGroup` says why).
    func run() async throws
}
