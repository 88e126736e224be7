import Glibc
import ServerConsole
import ServerDomain
import ServerHTTP
import SharedCLI
import SharedDomain
import SharedSystem
import Synchronization

/// The operator console as a part of `serve`: its own listener (`admin-listen`), its own
/// libmicrohttpd instance, the same ledger; the accounts and sessions in the ledger's database.
enum ConsoleService {
    /// The console's listening socket at `address`, bound beside the visitors' (so that both
    /// accept connections once the server is up, and a taken address fails the start).
    static func bind(_ address: ListenAddress) throws(CommandError) -> FileDescriptor {
        do throws(ListenSocketError) {
            return try ListenSocket.bind(address)
        } catch {
            throw CommandError(error.code == EACCES ? .noPermission : .unavailable, "admin-listen: " + error.description)
        }
    }

    /// Starts the console on `listener` (which its server takes over) and adds it to
    /// `services`; returns the bound address.
    static func start(on listener: consuming FileDescriptor, opened: any CheckInLedger, ledger: WatchedLedger, configuration: ServerConfiguration,
                      zone: SystemZone, clock: any WallClock, services: ServiceGroup) throws(CommandError) -> String {
        guard let accounts = opened as? any AccountLedger else { throw CommandError(.software, "this ledger keeps no console accounts") }
        let authenticator = HMACAuthenticator()
        let crypto = ConsoleCrypto(
            random: SecureRandom.bytes, digest: { GenericHash.digest($0, length: 32) },
            verifyPassword: { PasswordHash.verify($0, against: $1) }, hashPassword: PasswordHash.make, needsRehash: PasswordHash.needsRehash,
            equal: { authenticator.isEqualInConstantTime($0, $1) })
        // Unknown names are checked against this, so they take as long as known ones; made at
        // the first sign-in, not at start (a hash's 0.1 s of CPU and 64 MiB).
        let decoyHash = Mutex<String?>(nil)
        let decoy: @Sendable () -> String = {
            decoyHash.withLock { made in
                if made == nil { made = PasswordHash.make(Hex.encode(SecureRandom.bytes(16))) }
                return made ?? "$argon2id$unusable"
            }
        }
        let sessions = ConsoleSessions(accounts: accounts, clock: clock, crypto: crypto)
        _ = try? sessions.purgeExpired()
        let parts = ConsoleSite.Parts(
            ledger: ledger, accounts: accounts, refusals: opened as? any RefusalCounting,
            visits: LedgerOpenVisits(ledger: ledger, venues: configuration.venues), flow: opened as? any VisitFlowLog, venues: configuration.venues, zone: zone, clock: clock,
            crypto: crypto, ledgerAnswers: { !ledger.isInOutage }, decoyHash: decoy)
        var limits = configuration.limits
        limits.threads = 2
        let address = ListenSocket.boundAddress(listener)
        do throws(HTTPServerError) {
            services.add(try MicroHTTPServer(listener: listener, handler: ConsoleSite(parts), limits: limits,
                                             resolver: ClientResolver(trustedProxies: configuration.trustedProxies), observer: nil))
        } catch {
            throw CommandError(.unavailable, "admin-listen: " + error.description)
        }
        return address
    }
}
