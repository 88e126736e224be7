@testable import ServerPostgres
import Glibc
import ServerLedgerContract
import ServerDomain
import SharedDomain
import SharedTesting
import Synchronization
import Testing

/// The ledger rides out the database going away: while it is down every call fails as
/// `unavailable` (the server's 503) and nothing is acknowledged; once it is back the next calls
/// succeed on new connections, without restarting anything. Each test has its own cluster (it
/// restarts it).
struct PostgresReconnectionTests {
    static func ledger(_ cluster: PostgresCluster, poolSize: Int = 4) async throws -> PostgresLedger {
        let database = try await cluster.createDatabase()
        return try await PostgresLedger.open(PostgresConnectionString(cluster.uri(database)), poolSize: poolSize, clock: FixedClock(), blocking: TestPool.shared)
    }

    static func entry(_ index: Int, device: Bool = true) -> NewCheckIn {
        NewCheckIn(venue: PostgresLedgerTests.hall, time: WallTime(seconds: 1000 + Int64(index)), method: device ? .qr : .staff,
                   windowAge: device ? 0 : nil, device: device ? DeviceID("d\(index)") : nil, operatorName: device ? nil : "staff")
    }

    /// Records 8 at once, so the pool has opened all its connections.
    static func warm(_ ledger: PostgresLedger, from first: Int) async throws {
        let failures = Mutex(0)
        _ = await Array(0..<8).concurrentMap { index in
            if (try? await ledger.record(entry(first + index), duplicateSeconds: 60)) == nil { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test func aRestartThatIsOverCostsNoCall() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.close() }
        let ledger = try await Self.ledger(cluster)
        try await Self.warm(ledger, from: 0)
        try await cluster.stop()
        try await cluster.start()
        // Every pooled connection is stale now; each call must still succeed, reads and writes,
        // one at a time and all at once.
        #expect(try await ledger.count(CheckInQuery()) == 8)
        _ = try await ledger.record(Self.entry(100, device: false), duplicateSeconds: 0)
        try await Self.warm(ledger, from: 200)
        #expect(try await ledger.count(CheckInQuery()) == 17)
    }

    @Test func whileTheDatabaseIsDownCallsAreUnavailableAndItRecoversByItself() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.close() }
        let ledger = try await Self.ledger(cluster)
        try await Self.warm(ledger, from: 0)
        try await cluster.stop()
        for index in 0..<5 {
            do {
                _ = try await ledger.record(Self.entry(100 + index), duplicateSeconds: 60)
                Issue.record("a check-in was acknowledged while the database was down")
            } catch {
                #expect(error.kind == .unavailable, "\(error.message)")
            }
        }
        await #expect { try await ledger.count(CheckInQuery()) } throws: { ($0 as? LedgerError)?.kind == .unavailable }
        try await cluster.start()
        // Back within a second: the pool retries connecting after a quarter of a second.
        let deadline = ContinuousClock.now + .seconds(5)
        var recovered: ContinuousClock.Instant?
        while ContinuousClock.now < deadline {
            if (try? await ledger.record(Self.entry(200), duplicateSeconds: 60)) != nil {
                recovered = ContinuousClock.now
                break
            }
        }
        #expect(recovered != nil, "the ledger did not recover within 5 s of the database's return")
        #expect(try await ledger.count(CheckInQuery()) == 9, "only the check-ins that were acknowledged are there")
    }

    @Test func connectionsTheDatabaseTerminatedAreReplaced() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.close() }
        let database = try await cluster.createDatabase()
        let ledger = try await PostgresLedger.open(PostgresConnectionString(cluster.uri(database)), poolSize: 4, clock: FixedClock(), blocking: TestPool.shared)
        try await Self.warm(ledger, from: 0)
        let terminated = try await cluster.execute(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()) AS t",
            in: "postgres")
        #expect(Int(terminated ?? "") ?? 0 >= 1, "the ledger's connections were terminated")
        // pg_terminate_backend only signals: wait until the backends are gone (and have said so
        // on their sockets). A call racing a termination may fail; one after it must not.
        let deadline = ContinuousClock.now + .seconds(10)
        while try await cluster.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'", in: "postgres") != "0" {
            try await #require(ContinuousClock.now < deadline, "the terminated backends did not exit")
            usleep(20_000)
        }
        try await Self.warm(ledger, from: 100)
        #expect(try await ledger.count(CheckInQuery()) == 16)
    }
}

/// The pool's check of an idle connection before it hands it out.
struct PostgresConnectionHealthTests {
    @Test func anIdleConnectionKnowsWhenTheServerHasGoneAway() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.close() }
        let database = try await cluster.createDatabase()
        let parameters = try await PostgresConnectionString(cluster.uri(database)).libpqParameters
        let connection = try await PostgresConnection(keywords: parameters.keywords, values: parameters.values)
        _ = try await connection.query("SELECT 1")
        #expect(connection.isHealthy)
        try await cluster.stop()
        try await cluster.start()
        // Nothing was sent on it since: only the check can tell, before a write is lost to it.
        #expect(!connection.isHealthy)
        let fresh = try await PostgresConnection(keywords: parameters.keywords, values: parameters.values)
        #expect(fresh.isHealthy)
    }
}

/// The pool while the database does not answer at all.
struct PostgresPoolOutageTests {
    @Test func duringAnOutageOneCallerAtATimeWaitsForTheDatabase() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.close() }
        let database = try await cluster.createDatabase()
        let pool = PostgresPool(try await PostgresConnectionString(cluster.uri(database) + "&connect_timeout=2"), size: 8, blocking: TestPool.shared, retryInterval: .zero)
        try await pool.withConnection { connection throws(LedgerError) in try connection.execute("SELECT 1") }
        try await cluster.stop()
        // The first failure: the socket is gone.
        await #expect(throws: LedgerError.self) { try await pool.withConnection { connection throws(LedgerError) in try connection.execute("SELECT 1") } }
        // Now a socket that takes connections and never answers, like a host that hangs.
        let silent = try await SilentListener(path: cluster.directory + "/.s.PGSQL.5432")
        defer { silent.close() }
        let failures = Mutex<[(message: String, at: ContinuousClock.Instant)]>([])
        _ = await Array(0..<8).concurrentMap { _ in
            do throws(LedgerError) {
                try await pool.withConnection { connection throws(LedgerError) in try connection.execute("SELECT 1") }
            } catch {
                #expect(error.kind == .unavailable)
                failures.withLock { $0.append((error.message, ContinuousClock.now)) }
            }
        }
        let all = failures.withLock { $0 }
        #expect(all.count == 8)
        let waited = all.filter { $0.message.contains("timeout") }
        #expect(waited.count == 1, "one caller tried to connect: \(all.map(\.message))")
        // The seven others were answered at once, while it waited.
        #expect(all.filter { !$0.message.contains("timeout") }.allSatisfy { $0.at < waited[0].at })
    }
}

/// A Unix socket that accepts connections into its backlog and never reads or answers.
final class SilentListener {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw ClusterError("socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else { throw ClusterError("cannot listen on \(path)") }
    }

    func close() { Glibc.close(descriptor) }
}
