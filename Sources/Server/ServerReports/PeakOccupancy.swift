import ServerDomain
import SharedDomain

/// The most visits open at once (issue 32: `checkins --count --peak`), per venue and local day
/// or over them: every visit an interval from its entry to its end (its exit, else now or its
/// entry plus its venue's max-stay), swept in time order. A visit that spans midnight counts on
/// both days. Holds two events a visit in memory (a month of a busy venue: a few MB).
public struct PeakOccupancy: Sendable {
    private struct Event {
        let venue: VenueID?
        let time: Int64
        /// +1 an entry, −1 an end; ends sort before entries at the same moment (a visit ending
        /// as another begins never overlaps it).
        let step: Int
    }

    /// Whether peaks are per venue (else all venues together) and per local day (else overall).
    public let byVenue: Bool
    public let byDay: Bool
    private var events: [Event] = []

    /// An empty sweep grouping as asked.
    public init(byVenue: Bool, byDay: Bool) {
        self.byVenue = byVenue
        self.byDay = byDay
    }

    /// Adds `visit`, counted until `end`.
    public mutating func add(_ visit: CheckIn, until end: WallTime) {
        let venue = byVenue ? visit.venue : nil
        events.append(Event(venue: venue, time: visit.time.milliseconds, step: 1))
        events.append(Event(venue: venue, time: max(end.milliseconds, visit.time.milliseconds), step: -1))
    }

    /// The peaks: per group (venue when `byVenue`, day when `byDay`), the most visits open at once.
    public func peaks(in zone: any LocalTimeZone) -> [(venue: VenueID?, day: CalendarDay?, peak: Int)] {
        let sorted = events.sorted { ($0.venue?.rawValue ?? "", $0.time, $0.step) < ($1.venue?.rawValue ?? "", $1.time, $1.step) }
        var peaks: [String: (venue: VenueID?, day: CalendarDay?, peak: Int)] = [:]
        var venue: VenueID?, inside = 0, day: CalendarDay?
        func note(_ value: Int) {
            let key = (venue?.rawValue ?? "") + "|" + (day?.description ?? "")
            if value > (peaks[key]?.peak ?? -1) { peaks[key] = (venue, day, value) }
        }
        for (index, event) in sorted.enumerated() {
            if index == 0 || event.venue != venue {
                venue = event.venue
                inside = 0
                day = nil
            }
            let time = WallTime(milliseconds: event.time)
            let eventDay = byDay ? CalendarDay(containing: time, offsetSeconds: zone.offsetSeconds(at: time)) : nil
            if eventDay != day {
                day = eventDay
                note(inside)  // those inside since the day before count on this day too
            }
            inside += event.step
            if event.step > 0 { note(inside) }
        }
        return peaks.values.sorted { ($0.venue?.rawValue ?? "", $0.day?.description ?? "") < ($1.venue?.rawValue ?? "", $1.day?.description ?? "") }
    }
}
