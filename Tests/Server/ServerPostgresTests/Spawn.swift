import Glibc

/// Child processes for the test cluster through posix_spawn and waitpid, nothing in between:
/// each caller reaps its own child.
enum Spawn {
    /// glibc's POSIX_SPAWN_SETSID (2.26 and later), which Swift does not see without _GNU_SOURCE.
    private static let setSession: Int16 = 0x80

    /// Starts `arguments` (an absolute path first) with stdin from `input` (else /dev/null) and
    /// stdout and stderr to `output`; with `newSession`, in a session of its own (signals to
    /// the test's process group do not reach it).
    static func start(_ arguments: [String], input: Int32? = nil, output: Int32, newSession: Bool = false) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if newSession { posix_spawnattr_setflags(&attributes, Self.setSession) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard status == 0 else { throw ClusterError("cannot start \(arguments[0]): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Waits for `pid` and returns its exit status (128 + signal when killed).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
