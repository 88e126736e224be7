import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem
import SharedText

/// `qrcheckin-server checkins`: the recorded check-ins, oldest first, as a table, CSV or JSON
/// lines; or, with `--count`, how many (by venue, day or hour).
struct CheckinsCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "checkins",
        summary: "List or count the recorded check-ins (table, CSV or JSON lines).",
        options: LedgerCommandOptions.options() + [
            OptionSpec("format", short: "f", value: "FORMAT", help: "table, csv or jsonl (default table on a terminal, else csv)."),
            OptionSpec("excel", help: "With --format csv: for Excel (a byte order mark, phone numbers kept as text)."),
            OptionSpec("venue", value: "VENUE", help: "Only this venue's check-ins."),
            OptionSpec("from", value: "TIME", help: "Only those at or after TIME: Unix seconds, @UNIX, ISO 8601 with a zone, or now."),
            OptionSpec("until", value: "TIME", help: "Only those before TIME (same forms)."),
            OptionSpec("device", value: "ID", help: "Only this device's (its pseudonymous id, as the device column shows it)."),
            OptionSpec("limit", value: "N", help: "At most N, the oldest first."),
            OptionSpec("count", help: "Print how many instead of the rows (the total alone, or per group with --by)."),
            OptionSpec("by", value: "KEYS", help: "venue, day or hour (local), or several (venue,day): count per group (implies --count)."),
            OptionSpec("kept", help: "With --count: add the daily counts kept after their check-ins were purged."),
            OptionSpec("peak", help: "With --by venue and/or day: the most visits open at once per group, not check-ins."),
        ],
        discussion: """
            Prints the visitor log the server recorded, oldest first, streamed (any number of
            rows in constant memory). Columns: id, venue, time (UTC), local_time (this host's
            zone), method (qr, safe-number or staff), window_age (how many windows old the code
            was: 0 current, 1 the previous, -1 a kiosk slightly ahead), device (a pseudonymous id,
            not the cookie), name and phone (when the venue collects them) and operator (the
            user who made a staff check-in). CSV has a header line and RFC 4180 quoting; a name
            beginning with = + - or @ gets a leading ' so spreadsheets do not run it as a
            formula. --excel makes the CSV one Excel opens as written: a UTF-8 byte order mark
            first (Hangul names stay Hangul) and each phone number as ="01012345678" (its
            leading 0 stays). jsonl is one object a line, with the same keys. --device takes
            the id as any format shows it, or a prefix of one device's (as erase does). The
            database is opened, never created; the server may keep running meanwhile.

            --count prints the number of check-ins selected, alone on its line. --by venue,
            day or hour (or several, comma-separated, in column order) prints one row per group
            in the --format chosen: days and hours are this host's (TZ). --kept adds the daily
            counts purges kept when keep-counts is on (a kept day counts when its midnight is
            within --from/--until; not with --by hour or --device). --peak counts, per venue
            and/or local day, the most visits open at once among those selected (a visit from
            its entry to its exit, else to now but never past its venue's max-stay).

            Every export (and a count of one --device) is written to the audit log first: who,
            when, the filter and how many rows ('qrcheckin-server audit'). When the log cannot
            take the entry (a full disk), nothing is exported.

            EXIT STATUS: 0 listed; 64 bad command line; 65 --device names no device or several,
            or the database is not a ledger or is damaged; 66 the database does not exist; 74
            the output cannot be written, or the audit log cannot take the export's entry (a
            full disk: nothing exported); 77 permission denied; 78 a bad setting, or a ledger
            of a newer version.
            """
    )

    let ledgerOptions: LedgerCommandOptions
    let format: CheckInExport.Format?
    let query: CheckInQuery
    /// Nil lists the rows; empty counts the total; otherwise counts per group.
    let countKeys: [CountReport.Key]?
    let includesKept: Bool
    let excel: Bool
    let peak: Bool
    /// The venues' settings (their max-stay, for --peak).
    let venues: VenueDirectory

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        format = try arguments.choice("format", as: CheckInExport.Format.self)
        var query = try CheckInQueryOptions.query(arguments, now: SystemClock().now())
        query.limit = try arguments.integer("limit", in: 0...Int.max)
        self.query = query
        let keys = try arguments["by"].map { text throws(CommandError) in try Self.keys(text) }
        includesKept = arguments.has("kept")
        excel = arguments.has("excel")
        if excel, format != .csv { throw .usage("--excel shapes CSV for Excel: give it with --format csv") }
        peak = arguments.has("peak")
        // Only --peak needs the venues' settings: a bad one must not stop a plain export.
        venues = peak ? try ServerConfiguration.venues(ledgerOptions.layers) : VenueDirectory()
        if peak {
            guard let keys, !keys.isEmpty, !keys.contains(.hour) else { throw .usage("--peak goes with --by venue, day or venue,day") }
            guard !includesKept else { throw .usage("--peak counts visits in the log: it cannot be used with --kept") }
        }
        if arguments.has("count") || keys != nil {
            guard query.limit == nil else { throw .usage("--limit lists rows; it cannot be used with --count") }
            countKeys = keys ?? []
        } else {
            guard !includesKept else { throw .usage("--kept adds kept counts to --count") }
            countKeys = nil
        }
        if includesKept, keys?.contains(.hour) == true || query.device != nil {
            throw .usage("kept counts are per venue and day: --kept cannot be used with --by hour or --device")
        }
    }

    /// `venue`, `day,venue`: each key once.
    static func keys(_ text: String) throws(CommandError) -> [CountReport.Key] {
        var keys: [CountReport.Key] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let key = CountReport.Key(rawValue: item.trimmed()), !keys.contains(key) else {
                throw .usage("--by must be venue, day or hour, or several of them comma-separated (venue,day), got '\(text)'")
            }
            keys.append(key)
        }
        return keys
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let ledger = try await ledgerOptions.openLedger().ledger
        var query = query
        if let device = query.device { query.device = try await DeviceLookup.device(prefixed: device, in: ledger) }
        let chosen = format ?? (context.standardOutputIsTerminal ? .table : .csv)
        let trail = AuditTrail.shell(ledger, context)
        if let countKeys { return try await count(ledger, trail: trail, query: query, keys: countKeys, format: chosen, context) }
        // Who exported what, the filter and how many rows, is committed before the first row
        // leaves: a log that cannot take the entry (a full disk) exports nothing (exit 74).
        let audited = try await ledgerCall { () async throws(LedgerError) in
            try await VisitorLogExport(trail: trail, log: ledger).begin(.query(query), detail: Self.describe(query, format: chosen, excel: excel))
        }
        let export = CheckInExport(format: chosen, excel: excel, zone: SystemZone())
        var output = PageOutput()
        try output.append(export.header)
        do throws(LedgerError) {
            try await audited.pages(into: PageBytes(export), CheckInExport.fold) { page throws(LedgerError) in output.take(&page) }
        } catch {
            throw CommandError(error)
        }
        try output.finish()
        return .success
    }

    /// A query as the audit log describes it: `venue=HALL-1 from=… format=csv`.
    static func describe(_ query: CheckInQuery, format: CheckInExport.Format, excel: Bool = false) -> String {
        var parts: [String] = []
        if let venue = query.venue { parts.append("venue=\(venue)") }
        if let from = query.from { parts.append("from=\(UTCTime.iso8601(from.seconds))") }
        if let until = query.until { parts.append("until=\(UTCTime.iso8601(until.seconds))") }
        if query.device != nil { parts.append("device=…") }
        if let limit = query.limit { parts.append("limit=\(limit)") }
        return (parts + ["format=\(format.rawValue)"] + (excel ? ["excel"] : [])).joined(separator: " ")
    }

    private func count(_ ledger: any Ledger, trail: AuditTrail, query: CheckInQuery, keys: [CountReport.Key], format: CheckInExport.Format,
                       _ context: CommandContext) async throws(CommandError) -> ExitCode {
        // Counts of venues, days and hours are numbers of nobody; counted for one device they
        // tell when that visitor came: audited as an export of that device's check-ins.
        if query.device != nil {
            _ = try await ledgerCall { () async throws(LedgerError) in
                try await VisitorLogExport(trail: trail, log: ledger).begin(.query(query), detail: Self.describe(query, format: format) + " count")
            }
        }
        let kept = includesKept ? try await ledgerCall { () async throws(LedgerError) in try await keptCounts(ledger) } : []
        guard !keys.isEmpty else {
            let total = try await ledgerCall { () async throws(LedgerError) in try await ledger.count(query) }
            try context.output("\(total + kept.reduce(0) { $0 + $1.count })\n")
            return .success
        }
        var report = CountReport(keys: keys, zone: SystemZone())
        if peak {
            let now = SystemClock().now()
            var sweep = PeakOccupancy(byVenue: keys.contains(.venue), byDay: keys.contains(.day))
            try await ledgerCall { () async throws(LedgerError) in
                try await ledger.eachCheckIn(query) { visit throws(LedgerError) in
                    let profile = venues.profile(for: visit.venue) ?? venues.defaults
                    let end = visit.exit?.time ?? WallTime(milliseconds: min(now.milliseconds, visit.time.milliseconds + profile.maxStaySeconds * 1000))
                    sweep.add(visit, until: end)
                    return true
                }
            }
            for group in sweep.peaks(in: SystemZone()) { report.add(peak: group.peak, venue: group.venue, day: group.day) }
            try context.output(report.text(format))
            return .success
        }
        for tally in try await ledgerCall({ () async throws(LedgerError) in try await ledger.tally(query) }) { report.add(tally) }
        for count in kept { report.add(count) }
        try context.output(report.text(format))
        return .success
    }

    /// The kept counts the query's venue and time range select (whole days, by their midnight).
    private func keptCounts(_ ledger: any VisitLog) async throws(LedgerError) -> [DailyCount] {
        let zone = SystemZone()
        return try await ledger.keptCounts(venue: query.venue).filter { count in
            let midnight = count.day.midnight(in: zone)
            return (query.from.map { midnight >= $0 } ?? true) && (query.until.map { midnight < $0 } ?? true)
        }
    }
}
