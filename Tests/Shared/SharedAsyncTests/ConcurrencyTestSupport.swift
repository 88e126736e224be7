import Glibc
import SharedSystem
@testable import SharedAsync
import Synchronization

/// Waits until `condition` holds, checking every millisecond, and fails the test after
/// `seconds` (a loaded machine is slow, never wrong): the way these tests wait for what
/// another thread does, instead of sleeping "long enough".
func waitUntil(_ what: String, seconds: Int64 = 60, _ condition: () -> Bool) async throws {
    let deadline = MonotonicClock().now().milliseconds + seconds * 1000
    while !condition() {
        guard MonotonicClock().now().milliseconds < deadline else { throw Timeout(what: what) }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// A wait that did not end in time.
struct Timeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting until \(what)" }
}

/// A gate threads of our own (a pool's) wait at until the test opens it: work that blocks
/// for exactly as long as a test needs. Never waited at on Swift's cooperative pool.
final class Gate: Sendable {
    private let lock = ConditionLock(false)

    /// Blocks the calling thread until the gate is open.
    func pass() {
        lock.withLock(waitingUntil: { $0 }) { _ in }
    }

    /// Opens the gate for every thread waiting and every thread to come.
    func open() {
        lock.withLock { $0 = true }
        lock.broadcast()
    }
}

/// The names of this process's threads now (`/proc/self/task/*/comm`).
func threadNames() -> [String] {
    threads().map(\.name)
}

/// This process's threads now: each one's id and name (`/proc/self/task/*/comm`).
func threads() -> [(id: Int32, name: String)] {
    guard let directory = opendir("/proc/self/task") else { return [] }
    defer { closedir(directory) }
    var names: [(id: Int32, name: String)] = []
    while let entry = readdir(directory) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        guard !task.hasPrefix("."), let file = fopen("/proc/self/task/\(task)/comm", "r") else { continue }
        var line = [CChar](repeating: 0, count: 64)
        if fgets(&line, Int32(line.count), file) != nil {
            names.append((Int32(task) ?? 0, String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        fclose(file)
    }
    return names
}

/// The calling thread's name.
func currentThreadName() -> String {
    guard let file = fopen("/proc/thread-self/comm", "r") else { return "" }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 64)
    guard fgets(&line, Int32(line.count), file) != nil else { return "" }
    return String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A value several tasks and threads change, under a lock (a class, so closures can share it).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// The value now.
    var value: Value { mutex.withLock { $0 } }

    /// Changes the value and returns what `body` returns.
    @discardableResult
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}

/// A one-way door for tasks: `wait()` suspends until `open()` (at once after it).
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Suspends until the latch is open.
    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if now { continuation.resume() }
        }
    }

    /// Opens the latch for every waiter and every later one.
    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
