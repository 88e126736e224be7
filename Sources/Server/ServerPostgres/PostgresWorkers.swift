import Dispatch
import Synchronization

/// Threads that run the ledger's blocking calls for callers that must not wait (an HTTP server's
/// few threads): as many as the pool has connections, so a job never waits for a connection
/// while holding a thread, and first come, first served.
final class PostgresWorkers: Sendable {
    private struct State: ~Copyable {
        var jobs: [@Sendable () -> Void] = []
        /// The next job to run (jobs before it have been taken).
        var head = 0
        /// Workers waiting for a job.
        var idle: [Int]
    }

    private let queues: [DispatchQueue]
    private let state: Mutex<State>

    /// `count` workers, none running yet.
    init(count: Int) {
        queues = (0..<count).map { DispatchQueue(label: "qrcheckin-server.postgres-\($0)") }
        state = Mutex(State(idle: Array((0..<count).reversed())))
    }

    /// Runs `job` on a worker, now if one is idle, else when one is free.
    func submit(_ job: @escaping @Sendable () -> Void) {
        let worker = state.withLock { state in
            state.jobs.append(job)
            return state.idle.popLast()
        }
        if let worker { queues[worker].async { self.drain(worker) } }
    }

    /// Returns once every job submitted so far has run: each worker's queue holds the drain
    /// that takes the jobs waiting for it, so waiting for every queue waits for them all.
    func finish() {
        for queue in queues { queue.sync {} }
    }

    private func drain(_ worker: Int) {
        while let job = next(worker) { job() }
    }

    /// The oldest waiting job, or nil (and `worker` idle again) when there is none.
    private func next(_ worker: Int) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard state.head < state.jobs.count else {
                state.jobs.removeAll(keepingCapacity: true)
                state.head = 0
                state.idle.append(worker)
                return nil
            }
            let job = state.jobs[state.head]
            state.head += 1
            return job
        }
    }
}
