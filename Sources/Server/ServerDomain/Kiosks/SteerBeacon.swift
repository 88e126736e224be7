/// How a server learns of the steers it did not give itself: another server on the same
/// PostgreSQL database, or `qrcheckin-server kiosks set` on either engine. Once a second, and
/// only while a report is held here, it asks the fleet for the steers given since the last one
/// it saw (one read by the steers' key) and rings the bell of each such kiosk with a report
/// held. A steer given on this server rings the bell at once and is seen here again, harmlessly.
///
/// Why a look a second rather than PostgreSQL's LISTEN/NOTIFY: the shell's `kiosks set` on
/// SQLite (another process) must wake a held report too, which no notification reaches; one
/// mechanism serves both engines and every writer, and it cannot miss a steer (it compares
/// ids, which increase), where a listening connection that broke would. Its cost is one
/// indexed read a second per server; its delay at most a second (a steer reaches its kiosk
/// well within the 5 s asked).
public struct SteerBeacon: Sendable {
    /// Steers read at most per look (more are read by the next look at once).
    static let page = 500

    let fleet: any KioskFleet
    let bell: SteerBell

    /// A beacon reading `fleet`'s steers for `bell`'s held reports.
    public init(fleet: any KioskFleet, bell: SteerBell) {
        self.fleet = fleet
        self.bell = bell
    }

    /// Where the beacon starts: the newest steer given so far (those are read by the reports
    /// themselves); nil when the ledger cannot say now.
    public func start() async -> Int64? {
        try? await fleet.latestSteerID()
    }

    /// One look after the steer of id `last`: rings every kiosk that has a report held and a
    /// steer given since; returns the newest id seen (`last` when the ledger did not answer or
    /// nothing was given). Reads nothing while no report is held.
    public func look(after last: Int64) async -> Int64 {
        guard bell.waiting > 0 else { return last }
        var seen = last
        while true {
            guard let notices = try? await fleet.steers(after: seen, limit: Self.page) else { return seen }
            let held = bell.waitingKiosks
            for key in Set(notices.map(\.key)) where held.contains(key) { bell.ring(key) }
            seen = notices.last?.id ?? seen
            if notices.count < Self.page { return seen }
        }
    }

    /// Looks every `interval` on `clock` until cancelled.
    public func run(every interval: Duration, clock: any Clock<Duration>) async {
        var last: Int64?
        while !Task.isCancelled {
            if let known = last {
                last = await look(after: known)
            } else {
                last = await start()
            }
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
        }
    }
}
