import Glibc
import ServerConsole
import ServerDomain
import ServerHTTP
import ServerReports
import ServerSite
import ServerWeb
import ServerWebhooks
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem
import Synchronization

/// `qrcheckin-server serve`: answers the scanned URLs, records check-ins, until SIGTERM.
struct ServeCommand: AsyncCommand {
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

    /// SIGTERM (systemd's stop) and SIGINT (Ctrl-C) reach the service group as events.
    static var signals: Set<UnixSignal> { [.terminate, .interrupt] }
    static var serves: Bool { true }

    /// The longest a stop takes: the listener's drain, then the rest's (a purge's batch, the
    /// ledger's last commit). systemd's TimeoutStopSec is longer.
    static let gracePeriod: Duration = .seconds(MicroHTTPServer.drainSeconds + 5)

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        // libsodium (cookies' random bytes, device ids) is checked before anything is served.
        try LoadedLibrary.require([.sodium])
        let logger = Logger(environment: context.environment, program: "qrcheckin-server")
        for warning in configuration.warnings { logger.warning(warning) }
        AllocatorTuning.apply()
        let clock = SystemClock()
        let sleepClock = ContinuousClock()
        let keys = try ServerKeys.load(configuration.secretFiles, kioskStateDirectory: configuration.kioskStateDirectory,
                                       environment: context.environment)
        // Signals as events of the service group (blocked in every thread: ours, Swift's, and
        // the main thread before this command ran).
        let signals: SignalSequence
        do {
            signals = try SignalSequence(Self.signals)
        } catch {
            throw CommandError(.software, error.description)
        }
        // An outage (the database unreachable, busy or full) is logged once as it begins and
        // once as it ends: the engine tells the watch of every call's answer.
        let health = LedgerHealthWatch(now: { MonotonicClock().now().milliseconds }, report: { LedgerOutageLog.write($0, to: logger) })
        let opened = try await configuration.ledger.openLedger(create: true, clock: clock, observer: health)
        let ledger = opened.ledger
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
        let authenticator = HMACAuthenticator()
        let useCase = CheckInUseCase(venues: configuration.venues, keys: keys.map(\.keys), authenticator: authenticator,
                                     ledger: ledger, clock: clock, newDevices: NewDeviceBudget(limits: configuration.newDevices))
        let siteKeys = SiteKeys(sources: keys.map(\.keys), authenticator: authenticator)
        let zone = SystemZone()
        let venues = configuration.venues
        let fleet: any KioskFleet = ledger
        let judge = KioskJudge(venues: venues, serverVersion: ServerProgram.version)
        // The webhooks' outbox, delivered (issue 40), on a thread of its own for libcurl's waits
        // (a batch at a time: never one of the ledger's); ended events and attempts kept 30 days,
        // or the check-ins' retention when shorter.
        let outbox = ledger as? any WebhookLedger
        let delivery = try outbox.map { outbox throws(CommandError) in
            WebhookDelivery(ledger: outbox, clock: clock, pool: try webhookPool(),
                            keepMilliseconds: min(30 * 86_400, configuration.retention.checkInSeconds) * 1000, logger: { logger.warning($0) })
        }
        let metrics = ServerMetrics(startedAt: clock.now(), live: {
            let now = clock.now()
            return try? await LiveCounts.read(from: ledger, at: now, dayStart: CalendarDay(containing: now, in: zone).midnight(in: zone))
                .withPresence(from: ledger, venues: venues)
        }, kiosks: { @Sendable in
            (try? await fleet.kiosks(venue: nil)).map { KioskListing(records: $0, judge: judge, now: clock.now()).rows }
        }, webhooks: { () async -> WebhookMetrics? in
            guard let outbox, let delivery, let events = try? await outbox.webhookCounts() else { return nil }
            let sent = delivery.counters.snapshot
            return WebhookMetrics(events: events, delivered: sent.delivered, failed: sent.failed, retried: sent.retried,
                                  latencyMilliseconds: sent.latencyMilliseconds)
        })
        let retention = RetentionService(ledger: ledger, policy: configuration.retention, clock: clock,
                                         dayOffset: { zone.offsetSeconds(at: $0) }, report: { [configuration] purge in
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
        let closer = PresenceCloser(ledger: ledger, venues: venues, clock: clock, zoneOffset: { zone.offsetSeconds(at: $0) }, report: { pass in
            switch pass.result {
            case .success(let ended): if ended > 0 { logger.info("presence: \(ended) visits ended automatically (max-stay, close-at)") }
            case .failure(let error): logger.error("presence: ending visits automatically failed, trying again in a minute: \(error.message)")
            }
        })
        // Kiosks' reports (issue 39): verified with the venues' report keys, kept in the ledger.
        let kioskBell = SteerBell()
        let kioskDesk = KioskReportDesk(reception: KioskReportReception(
            fleet: fleet, keyring: ReportKeyring(sources: keys.map(\.keys), authenticator: authenticator),
            venues: configuration.venues, clock: clock), bell: kioskBell, clock: sleepClock, counted: { metrics.countKioskReport($0) })
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
                // An outage (the database unreachable, busy or full) is logged by the health
                // watch as it begins and ends; other failures once a minute at most.
                guard !LedgerHealth.isOutage(error.kind) else { return }
                if let skipped = failures.withLock({ $0.admit(now: MonotonicClock().now()) }) {
                    logger.error("the ledger failed, check-ins are answered with 503: \(error.message)"
                                 + (skipped > 0 ? " (\(skipped) more failures since the last report)" : ""))
                }
            },
            kioskReports: kioskDesk)
        // The console first: once the visitors' listener runs, the server is at work.
        var consoleAddress = ""
        var listeners: [any Service] = []
        if let consoleListener = consume consoleListener {
            let console = try await ConsoleService.start(on: consoleListener, ledger: ledger, health: health, configuration: configuration,
                                                         keys: keys.map(\.keys), zone: zone, clock: clock, pool: opened.pool,
                                                         kiosks: KioskConsole(fleet: fleet, bell: kioskBell, judge: judge))
            listeners.append(console.service)
            consoleAddress = console.address
        }
        let address = ListenSocket.boundAddress(listener)
        do throws(HTTPServerError) {
            listeners.append(try MicroHTTPServer(listener: listener, handler: CheckInSite(parts), limits: configuration.limits,
                                                 resolver: ClientResolver(trustedProxies: configuration.trustedProxies), observer: metrics,
                                                 sleepClock: sleepClock, pool: opened.pool))
        } catch {
            throw CommandError(.unavailable, error.description)
        }
        // After the listeners, so stopped before them: held reports are answered at once.
        let kioskServices: [any Service] = [KioskReportService(bell: kioskBell, beacon: SteerBeacon(fleet: fleet, bell: kioskBell), clock: sleepClock,
                                                               watch: KioskWatchLog(watch: KioskWatch(fleet: fleet, judge: judge, clock: clock), logger: logger))]
        let served = configuration.venues.servesUnlisted ? "every venue its keys serve"
            : configuration.venues.profiles.keys.map(\.rawValue).sorted().joined(separator: ", ")
        logger.notice("listening on \(address), base path \(configuration.basePath.isEmpty ? "/" : configuration.basePath), "
                      + "\(configuration.database.description), \(consoleAddress.isEmpty ? "no console" : "console on " + consoleAddress), keys \(keys.map(\.path).joined(separator: ", ")); serving \(served)")
        let notifier = SystemdNotifier(environment: context.environment)
        notifier.notify("READY=1\nSTATUS=listening on \(address)")
        // Started in order, stopped in the reverse on SIGTERM within the grace period: the
        // listeners let their check-ins commit (the visitors' first, then the console's), the
        // schedules end (a purge under way finishes), then the ledger's threads (the writer last:
        // every acknowledged check-in is committed, and the refused scans too).
        // The webhooks' outbox, delivered (issue 40), on a thread of its own for libcurl's waits
        // (a batch at a time: never one of the ledger's).
        let webhooks: [any Service] = delivery.map { [WebhookDeliveryService(delivery: $0, clock: sleepClock)] } ?? []
        let group = ServiceGroup(
            services: opened.services + [RetentionSchedule(retention: retention, clock: sleepClock),
                                         PresenceSchedule(closer: closer, clock: sleepClock)] + webhooks + listeners + kioskServices + [StoppingNotice(notifier: notifier)],
            signals: signals, gracePeriod: Self.gracePeriod, clock: sleepClock, logger: logger)
        let report = await group.run()
        logger.notice("stopped (\(report.reason)): \(report.endings.map { "\($0.name) \($0.kind)" }.joined(separator: ", "))")
        guard report.isClean else {
            throw CommandError(.software, "the server stopped unclean (\(report.reason)): "
                               + report.endings.filter { $0.kind != .stopped || $0.error != nil }.map { "\($0.name) \($0.kind)" + ($0.error.map { ": \($0)" } ?? "") }
                                   .joined(separator: ", "))
        }
        return .success
    }
}

/// The host's time zone for the pages.
struct SystemZone: LocalTimeZone {
    func offsetSeconds(at time: WallTime) -> Int { SystemTimeZone.offsetSeconds(at: time.seconds) }
}
