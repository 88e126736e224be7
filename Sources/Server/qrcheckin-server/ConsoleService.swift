import Glibc
import ServerConsole
import ServerDomain
import ServerHTTP
import ServerSecondFactor
import ServerWebhooks
import SharedAsync
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

    /// Starts the console on `listener` (which its server takes over): its listener, as a
    /// service of `serve`, and the address it is bound to. Password hashes (Argon2id) run on `pool`.
    static func start(on listener: consuming FileDescriptor, ledger: any Ledger, health: LedgerHealthWatch, configuration: ServerConfiguration,
                      keys: [SigningKeySource], zone: SystemZone, clock: any WallClock, pool: BlockingPool,
                      kiosks: KioskConsole? = nil) async throws(CommandError) -> (service: any Service, address: String) {
        let authenticator = HMACAuthenticator()
        let crypto = ConsoleCrypto(
            random: SecureRandom.bytes, digest: { GenericHash.digest($0, length: 32) },
            verifyPassword: { password, hash in (try? await pool.run { () throws(Never) in PasswordHash.verify(password, against: hash) }) ?? false },
            hashPassword: { password in (try? await pool.run { () throws(Never) in PasswordHash.make(password) }) ?? nil },
            needsRehash: PasswordHash.needsRehash, equal: { authenticator.isEqualInConstantTime($0, $1) })
        // Unknown names are checked against this, so they take as long as known ones; made at
        // the first sign-in, not at start (a hash's 0.1 s of CPU and 64 MiB).
        let decoyHash = Mutex<String?>(nil)
        let decoy: @Sendable () async -> String = {
            if let made = decoyHash.withLock({ $0 }) { return made }
            let made = (try? await pool.run { () throws(Never) in PasswordHash.make(Hex.encode(SecureRandom.bytes(16))) }) ?? nil
            return decoyHash.withLock { kept in
                if kept == nil { kept = made }
                return kept ?? "$argon2id$unusable"
            }
        }
        let sessions = ConsoleSessions(accounts: ledger, clock: clock, crypto: crypto)
        _ = try? await sessions.purgeExpired()
        // api-rate calls a second per token, after a burst of five seconds' worth.
        let apiRate = RateBudget(burst: 5 * configuration.apiRate, intervalMilliseconds: max(1, 1000 / Int64(configuration.apiRate)))
        let parts = ConsoleSite.Parts(ledger: ledger, venues: configuration.venues, zone: zone, clock: clock, crypto: crypto, apiRate: apiRate,
                                      ledgerAnswers: { !health.isInOutage }, decoyHash: decoy, kiosks: kiosks,
                                      newWebhookSecret: { WebhookSigner.newSecret() },
                                      secondFactor: ConsoleSecondFactor(keys: SecondFactorKeys(sources: keys, authenticator: authenticator),
                                                                        authenticator: authenticator,
                                                                        issuer: OTPAuthURI.issuer(organisation: configuration.look.controller),
                                                                        random: SecureRandom.bytes),
                                      requireSecondFactor: configuration.requireTOTP, signIn: configuration.signIn)
        var limits = configuration.limits
        limits.threads = 2
        let address = ListenSocket.boundAddress(listener)
        do throws(HTTPServerError) {
            let server = try MicroHTTPServer(listener: listener, handler: ConsoleSite(parts), limits: limits,
                                             resolver: ClientResolver(trustedProxies: configuration.trustedProxies),
                                             identity: configuration.signIn.proxy.map {
                                                 ProxyIdentityHeaders(names: $0.headerNames, trusted: configuration.trustedProxies)
                                             }, observer: nil, pool: pool)
            return (NamedService(name: "console listener", service: server), address)
        } catch {
            throw CommandError(.unavailable, "admin-listen: " + error.description)
        }
    }
}
