import CPostgres
import Glibc
import Synchronization

/// A throwaway PostgreSQL cluster the tests start themselves: `initdb` into a fresh directory
/// under /tmp (as the `postgres` user when the tests run as root: PostgreSQL refuses root),
/// listening only on a Unix socket in that directory. Torn down by a watchdog that waits for
/// the test process to close a pipe, so the cluster goes away however the process ends (normal
/// exit, a failed expectation, a crash, SIGKILL); `close()` does the same at once and waits.
final class PostgresCluster: @unchecked Sendable {
    /// The cluster every contract case shares (each case gets its own database), started on first use.
    static let shared: PostgresCluster = {
        do {
            // Made on first use, wherever that is: a thread of Swift's pool is held for initdb once.
            let cluster = try PostgresCluster(prepared: ())
            try PostgresCluster.run(cluster.initialise, in: cluster.directory)
            try PostgresCluster.run(cluster.starting, in: cluster.directory)
            atexit { PostgresCluster.shared.close() }
            return cluster
        } catch {
            fatalError("cannot start the test PostgreSQL: \(error)")
        }
    }()

    /// The directory of the data, the socket and the log; reachable by the `postgres` user.
    let directory: String
    private var data: String { directory + "/data" }
    private let watchdog: pid_t
    /// The write end of the watchdog's pipe (close-on-exec: no child of ours holds it).
    private let watchdogPipe: Int32
    private let databases = Mutex(0)
    private let closed = Mutex(false)

    /// The server programs of the newest PostgreSQL installed (Debian: /usr/lib/postgresql/N/bin).
    static let binaries: String = {
        var newest = 0
        if let directory = opendir("/usr/lib/postgresql") {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if let version = Int(name), access("/usr/lib/postgresql/\(name)/bin/initdb", X_OK) == 0 { newest = max(newest, version) }
            }
            closedir(directory)
        }
        return "/usr/lib/postgresql/\(newest == 0 ? 15 : newest)/bin"
    }()

    /// Whether the tests run as root (then PostgreSQL runs as `postgres`).
    private static let asRoot = getuid() == 0

    /// Initialises and starts a new cluster (initdb and pg_ctl on the test pool).
    convenience init() async throws {
        try self.init(prepared: ())
        try await run(initialise)
        try await start()
    }

    /// The cluster's directory and its watchdog; nothing initialised or started yet.
    private init(prepared: ()) throws {
        var template = Array("/tmp/qrcheckin-pg-test.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ClusterError("mkdtemp failed")
        }
        directory = String(cString: made)
        if Self.asRoot {
            guard let user = getpwnam("postgres") else { throw ClusterError("no postgres user (apt-get install postgresql)") }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        // The watchdog first: from here on, whatever happens, the directory goes away.
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ClusterError("pipe failed") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        watchdogPipe = ends[1]
        let stop = Self.command(["\(Self.binaries)/pg_ctl", "-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        let script = "read -r _; \(stop.map(Self.quoted).joined(separator: " ")) >/dev/null 2>&1; rm -rf \(Self.quoted(directory))"
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { Glibc.close(null) }
        watchdog = try Spawn.start(["/bin/sh", "-c", script], input: ends[0], output: null, newSession: true)
        Glibc.close(ends[0])
    }

    private var initialise: [String] {
        ["\(Self.binaries)/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]
    }

    private var starting: [String] {
        ["\(Self.binaries)/pg_ctl", "-D", data, "-l", directory + "/log", "-w", "-o",
         "-k \(directory) -c listen_addresses='' -c fsync=off -c max_connections=200", "start"]
    }

    deinit { close() }

    /// Starts the server (again) and waits until it accepts connections.
    func start() async throws {
        try await run(starting)
    }

    /// Stops the server (fast: clients are disconnected) and waits until it is gone.
    func stop() async throws {
        try await run(["\(Self.binaries)/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"])
    }

    /// Stops everything and removes the directory; waits until that is done. Idempotent.
    func close() {
        guard closed.withLock({ let was = $0; $0 = true; return !was }) else { return }
        Glibc.close(watchdogPipe)
        _ = Spawn.wait(watchdog)
    }

    /// The libpq URI of `database` in this cluster.
    func uri(_ database: String) -> String {
        "postgresql:///\(database)?host=\(directory)&user=postgres"
    }

    /// A new empty database; its name.
    func createDatabase() async throws -> String {
        let name = "ledger_\(databases.withLock { $0 += 1; return $0 })"
        try await execute("CREATE DATABASE \(name)", in: "postgres")
        return name
    }

    /// Runs `sql` (no parameters: test statements) in `database`; the first column of the first
    /// row. On the test pool: libpq blocks, and Swift's few threads are the servers' under test.
    @discardableResult
    func execute(_ sql: String, in database: String) async throws -> String? {
        let uri = uri(database)
        return try await TestPool.shared.run({ () throws(ClusterError) in try Self.execute(sql, uri: uri) }, refused: { ClusterError("\($0)") })
    }

    private static func execute(_ sql: String, uri: String) throws(ClusterError) -> String? {
        guard let connection = PQconnectdb(uri) else { throw ClusterError("out of memory") }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else { throw ClusterError(String(cString: PQerrorMessage(connection))) }
        guard let result = PQexec(connection, sql) else { throw ClusterError("out of memory") }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK: return PQntuples(result) > 0 ? PQgetvalue(result, 0, 0).map { String(cString: $0) } : nil
        case PGRES_COMMAND_OK: return nil
        default: throw ClusterError("\(sql): \(String(cString: PQresultErrorMessage(result)))")
        }
    }

    /// Runs a server program as the cluster's owner and waits for it (on the test pool: it
    /// blocks for seconds); its output goes to a log.
    private func run(_ arguments: [String]) async throws {
        let directory = directory
        try await TestPool.shared.run({ () throws(ClusterError) in try Self.run(arguments, in: directory) }, refused: { ClusterError("\($0)") })
    }

    private static func run(_ arguments: [String], in directory: String) throws(ClusterError) {
        let path = directory + "/commands.log"
        let log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw ClusterError("cannot write \(path)") }
        defer { Glibc.close(log) }
        let pid: pid_t
        do {
            pid = try Spawn.start(Self.command(arguments), output: log)
        } catch {
            throw ClusterError("\(arguments[0]): \(error)")
        }
        let status = Spawn.wait(pid)
        guard status == 0 else {
            throw ClusterError("\(arguments.joined(separator: " ")) exited \(status); see \(path)")
        }
    }

    private static func command(_ arguments: [String]) -> [String] {
        asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}

/// A test cluster could not be set up.
struct ClusterError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
