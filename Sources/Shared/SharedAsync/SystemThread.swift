import CLinux
import Glibc
import SharedSystem

/// A thread of our own (pthreads), outside Swift's cooperative pool: where blocking calls may
/// run (`BlockingPool`) and a program's signals may be waited for (`SignalSequence`).
enum SystemThread {
    /// Starts `body` on a new joinable thread called `name` (its first 15 bytes show in `ps -L`
    /// and gdb) and returns its handle. Every asynchronous signal is blocked in it from its first
    /// instruction: a process that reads its signals from a signalfd needs them blocked in every
    /// thread, or the kernel delivers one to a thread that does not block it (and, for SIGTERM,
    /// ends the process). Faults (SIGSEGV, SIGBUS) still arrive: they are not blockable in effect.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) -> pthread_t {
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        // The new thread inherits the creating thread's mask: block everything around the
        // create, so there is no moment when the new thread can take a signal.
        pthread_sigmask(SIG_BLOCK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let context = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            _ = clinux_name_thread(body.name)  // the kernel keeps the first 15 bytes
            body.body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemError("start", path: "thread \(name)", code: result)
        }
        return thread
    }

    /// Waits for `thread` to end and frees it. Blocks: only for a thread that is known to be
    /// on its way out, or from a thread of our own.
    static func join(_ thread: pthread_t) {
        pthread_join(thread, nil)
    }

    /// Lets `thread` free itself when it ends (no one will join it).
    static func detach(_ thread: pthread_t) {
        pthread_detach(thread)
    }
}

/// What a new thread runs, handed to it through pthread_create's context pointer.
private final class ThreadBody {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
