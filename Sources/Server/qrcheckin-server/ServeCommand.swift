import Glibc
import ServerConsole
import ServerDomain
import ServerHTTP
import ServerReports
import ServerSite
import ServerWeb
import ServerWebhooks
import SharedCLI
import SharedDomain
import SharedSystem
import Synchronization

/// `qrcheckin-server serve`: answers the scanned URLs, records check-ins, until SIGTERM.
struct ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        summary: "Answer scanned check-in URLs: verify, record, show the receipt.",
        options: ServerConfiguration.options,
        discussion: """
            Listens on --listen (or the socket systemd passes: socket activation) and answers
            the URLs the kiosks' codes hold, BASE-PATH/VENUE/TOKEN: verifies the code at this
            server's clock with the venue's period and skew, records the check-in, then answers
            303 to its receipt. The same device at the same venue within duplicate-time is one
            check-in ("already checked in at 14:03"). BASE-PATH/VENUE is a form for the safe
            number, rate limited per client. Pages are Korean or English (Accept-Language, or
            ?lang=ko|en). Every venue a master secret signs is served unless venues limits them;
            a venue key serves its venue only. At start and then daily the server deletes the
            check-ins older than retention (28 days) and the refused scans older than
            refusal-retention (7 days), as 'purge' does; see docs/PRIVACY.md.

            Settings come from the config files (--config, or $QRCHECKIN_SERVER_CONFIG, a list
            joined by ':'), then QRCHECKIN_SERVER_* variables (QRCHECKIN_SERVER_LISTEN…), then
            flags. A config file may set name, period, skew, duplicate-time, visitor-fields,
            new-devices-per-hour, capacity, max-stay, close-at, accent and logo per venue:
            'duplicate-time.HALL-1 = 1h', 'capacity.HALL-1 = 40'; and 'exit.HALL-1-OUT =
            HALL-1' makes HALL-1-OUT's codes record exits from HALL-1 (an exit kiosk). The
            secret is found as qrcheckin finds it (the secret-file setting, else
            $CREDENTIALS_DIRECTORY/secret, else the secret in qrcheckin's state directory:
            state-dir, else $QRCHECKIN_STATE_DIR, else qrcheckin's default), so 'qrcheckin run
            --state-dir D' and 'serve --state-dir D' share one.

            FILES: the database defaults to $STATE_DIRECTORY/checkins.db, else
            /var/lib/qrcheckin-server/checkins.db (root), else
            ~/.local/state/qrcheckin-server/checkins.db; it is created with mode 0600. Several
            servers share one PostgreSQL database instead: database = postgresql://… (a libpq
            URI; postgresql:KEY=VALUE … for libpq's pairs; sslmode and the rest as libpq
            documents them), its schema brought up to date at start. While it cannot be
            reached, check-ins are answered 503 and the server reconnects by itself. See
            docs/SERVER.md.

            EXIT STATUS: 0 stopped by SIGTERM or SIGINT; 64 bad command line; 65 a bad key file
            or a database that is not a ledger; 66 the secret file is missing; 69 the address is
            in use or cannot be listened on, or PostgreSQL cannot be reached at start; 73 the
            database cannot be created, or its directory fails the trust check; 77 permission
            denied (secret file, database, a privileged port), or the database is read-only; 78
            a bad setting in a config file or the environment, or a ledger of a newer version.
            """
    )

    let configuration: ServerConfiguration

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        configuration = try ServerConfiguration(arguments, environment: context.environment)
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        // libsodium (cookies' random bytes, device ids) is checked before anything is served.
        try LoadedLibrary.require([.sodium])
        let logger = Logger(environment: context.environment, program: "qrcheckin-server")
        AllocatorTuning.apply()
        let clock = SystemClock()
        let keys = try ServerKeys.load(configuration.secretFiles, kioskStateDirectory: configuration.kioskStateDirectory,
                                       environment: context.environment)
        // Started in order, stopped in reverse: the listener lets its check-ins commit, then the
        // retention schedule ends (a purge under way finishes), then the ledger's writes do.
        let services = ServiceGroup(graceSeconds: Int64(MicroHTTPServer.drainSeconds) + 5)
        let opened = try configuration.ledger.openLedger(create: true, clock: clock)
        let ledger = WatchedLedger(
            opened,
            now: { MonotonicClock().now().milliseconds }, report: { LedgerOutageLog.write($0, to: logger) })
        services.add(LedgerWrites(ledger: ledger))
        let listener: FileDescriptor
        do throws(ListenSocketError) {
            if let inherited = try ListenSocket.inherited(environment: context.environment) {
                listener = inherited
            } else {
                listener = try ListenSocket.bind(configuration.listen)
            }
        } catch {
            throw CommandError(error.code == EACCES ? .noPermission : .unavailable, error.description)
        }
        // Owned descriptors: whatever fails from here on, each socket is closed once, as it goes.
        let consoleListener = try configuration.adminListen.map(ConsoleService.bind)
        // Signals go to a descriptor: blocked here, before libmicrohttpd starts its threads, so
        // every thread inherits the mask and the main thread alone takes them.
        let signals: SignalSource
        do {
            signals = try SignalSource([SIGTERM, SIGINT])
        } catch {
            throw CommandError(.software, error.description)
        }
        let authenticator = HMACAuthenticator()
        let useCase = CheckInUseCase(venues: configuration.venues, keys: keys.map(\.keys), authenticator: authenticator,
                                     ledger: ledger, clock: clock, newDevices: NewDeviceBudget(limits: configuration.newDevices))
        let siteKeys = SiteKeys(sources: keys.map(\.keys), authenticator: authenticator)
        let zone = SystemZone()
        let metrics = ServerMetrics(startedAt: clock.now(), live: {
            let now = clock.now()
            return try? LiveCounts.read(from: ledger, at: now, dayStart: CalendarDay(containing: now, in: zone).midnight(in: zone))
                .withPresence(from: ledger, venues: configuration.venues)
        })
        let retention = RetentionService(ledger: ledger, policy: configuration.retention, clock: clock,
                                         dayOffset: { zone.offsetSeconds(at: $0) }, report: { purge in
            metrics.countPurge(purge)
            switch purge.result {
            case .success(let report):
                // A purge that found nothing is routine; one that deleted is worth a notice.
                let text = "retention: " + PurgeSummary(request: purge.request, report: report, policy: configuration.retention, zone: zone).text
                let audit = (try? purge.audit.get()) ?? 0
                let line = text + (audit > 0 ? "; \(audit) audit entries older than \(PeriodText.of(configuration.retention.auditSeconds))" : "")
                if report.checkIns + report.refusals + audit > 0 { logger.notice(line) } else { logger.info(line) }
            case .failure(let error):
                logger.error("retention: the purge failed, trying again within the hour: \(error.message)")
            }
        })
        // At start, then daily: nothing is kept longer than the retention says.
        services.add(RetentionSchedule(retention))
        // At start, then every minute: visits nobody ended end by max-stay and close-at.
        services.add(PresenceSchedule(PresenceCloser(ledger: ledger, venues: configuration.venues, clock: clock,
                                                     zoneOffset: { zone.offsetSeconds(at: $0) }, report: { pass in
            switch pass.result {
            case .success(let ended): if ended > 0 { logger.info("presence: \(ended) visits ended automatically (max-stay, close-at)") }
            case .failure(let error): logger.error("presence: ending visits automatically failed, trying again in a minute: \(error.message)")
            }
        })))
        // The webhooks' outbox, delivered (issue 40): started after the ledger, stopped before it
        // (the batch under way records its results).
        if let webhooks = opened as? any WebhookLedger {
            services.add(WebhookDeliveryService(WebhookDelivery(ledger: webhooks, clock: clock, pool: try webhookPool(),
                                                                    logger: { logger.warning($0) })))
        }
        let failures = Mutex(LogRateLimiter(intervalMilliseconds: 60_000))
        let parts = CheckInSite.Parts(
            useCase: useCase, basePath: configuration.basePath, zone: zone, clock: clock,
            limiter: SafeNumberLimiter(tries: configuration.safeNumberTries, clock: clock),
            cookies: DeviceCookies(random: SecureRandom.bytes, hash: { GenericHash.digest($0) }, keys: siteKeys, authenticator: authenticator, clock: clock),
            tickets: VisitorTickets(keys: siteKeys, authenticator: authenticator),
            formTokens: FormTokens(keys: siteKeys, authenticator: authenticator),
            metrics: metrics,
            look: configuration.look,
            occupancyOrigins: configuration.occupancyOrigins,
            ledgerFailed: { error in
                // An outage (the database unreachable, busy or full) is logged by the watched
                // ledger as it begins and ends; other failures once a minute at most.
                guard !LedgerHealth.isOutage(error.kind) else { return }
                if let skipped = failures.withLock({ $0.admit(now: MonotonicClock().now()) }) {
                    logger.error("the ledger failed, check-ins are answered with 503: \(error.message)"
                                 + (skipped > 0 ? " (\(skipped) more failures since the last report)" : ""))
                }
            })
        // The console first: once the visitors' listener runs, the server is at work.
        var consoleAddress = ""
        if let consoleListener = consume consoleListener {
            do throws(CommandError) {
                consoleAddress = try ConsoleService.start(on: consoleListener, opened: opened, ledger: ledger, configuration: configuration,
                                                          zone: zone, clock: clock, services: services)
            } catch {
                services.stop()
                throw error
            }
        }
        let address = ListenSocket.boundAddress(listener)
        do throws(HTTPServerError) {
            services.add(try MicroHTTPServer(listener: listener, handler: CheckInSite(parts), limits: configuration.limits,
                                             resolver: ClientResolver(trustedProxies: configuration.trustedProxies), observer: metrics))
        } catch {
            services.stop()
            throw CommandError(.unavailable, error.description)
        }
        let served = configuration.venues.servesUnlisted ? "every venue its keys serve"
            : configuration.venues.profiles.keys.map(\.rawValue).sorted().joined(separator: ", ")
        logger.notice("listening on \(address), base path \(configuration.basePath.isEmpty ? "/" : configuration.basePath), "
                      + "\(configuration.database.description), \(consoleAddress.isEmpty ? "no console" : "console on " + consoleAddress), keys \(keys.map(\.path).joined(separator: ", ")); serving \(served)")
        let notifier = SystemdNotifier(environment: context.environment)
        notifier.notify("READY=1\nSTATUS=listening on \(address)")
        do throws(CommandError) {
            try Self.waitForStopSignal(signals)
        } catch {
            services.stop()
            throw error
        }
        notifier.notify("STOPPING=1")
        let stopped = services.stop()
        logger.notice("stopped (\(stopped.joined(separator: ", ")))")
        return .success
    }

    /// Blocks until SIGTERM or SIGINT arrives.
    private static func waitForStopSignal(_ signals: borrowing SignalSource) throws(CommandError) {
        while true {
            do {
                _ = try Poller.wait(readable: [signals.descriptor.rawValue], timeoutMilliseconds: -1)
            } catch {
                throw CommandError(.software, error.description)
            }
            let received = signals.drain()
            if received.contains(SIGTERM) || received.contains(SIGINT) { return }
        }
    }
}

/// The host's time zone for the pages.
struct SystemZone: LocalTimeZone {
    func offsetSeconds(at time: WallTime) -> Int { SystemTimeZone.offsetSeconds(at: time.seconds) }
}
