import ServerDomain
import SharedDomain

/// What `erase` shows before it erases: whose check-ins and how many, and how many per local
/// day and venue. Never a phone number or a device id whole (their last four digits, their
/// first 16 characters, as the table shows them): enough for the operator to check against the
/// request, nothing a terminal's scrollback or a script's log should keep.
public struct ErasurePreview: Sendable {
    /// Whose check-ins, as the operator named them.
    public enum Scope: Hashable, Sendable {
        /// Every check-in of a device: given (`--device`), or the device of check-in `ofCheckIn`.
        case device(DeviceID, ofCheckIn: Int64?)
        /// Every check-in with a phone number: given (`--phone`), or that of check-in `ofCheckIn`.
        case phone(String, ofCheckIn: Int64?)
        /// One check-in: asked for alone, or one that names neither a device nor a phone.
        case checkIn(Int64, namesNoVisitor: Bool)

        /// The visitor as the audit log names them, as the operator did and as the console
        /// does: `receipt 93812746501234` (`… only`), `phone …5678`, `device 019ad3c0f1e27a4b`;
        /// never a phone number or a device id whole.
        public var described: String {
            switch self {
            case .device(_, ofCheckIn: let id?), .phone(_, ofCheckIn: let id?), .checkIn(let id, namesNoVisitor: true): "receipt \(id)"
            case .checkIn(let id, namesNoVisitor: false): "receipt \(id) only"
            case .device(let device, ofCheckIn: nil): "device \(ErasurePreview.abbreviated(device))"
            case .phone(let phone, ofCheckIn: nil): "phone \(ErasurePreview.masked(phone))"
            }
        }
    }

    /// Whose check-ins.
    public let scope: Scope
    /// How many check-ins it shows.
    public let count: Int
    /// The lines under the heading: local day, venue, count; oldest day first.
    private let days: [(day: CalendarDay, venue: String, count: Int)]

    /// The preview of erasing `checkIns` (what the ledger's `checkIns(of:)` returned), days in `zone`.
    public init(scope: Scope, checkIns: [CheckIn], zone: any LocalTimeZone) {
        self.scope = scope
        count = checkIns.count
        var counts: [DayAndVenue: Int] = [:]
        for checkIn in checkIns {
            counts[DayAndVenue(day: CalendarDay(containing: checkIn.time, in: zone), venue: checkIn.venue.rawValue), default: 0] += 1
        }
        days = counts.map { (day: $0.key.day, venue: $0.key.venue, count: $0.value) }
            .sorted { ($0.day, $0.venue) < ($1.day, $1.venue) }
    }

    private struct DayAndVenue: Hashable {
        let day: CalendarDay
        let venue: String
    }

    /// A heading, then a line a day and venue: `  2026-11-24  HALL-1  3`.
    public var text: String {
        let width = days.map(\.venue.count).max() ?? 0
        let lines = days.map { line in
            "  \(line.day)  \(line.venue)\(String(repeating: " ", count: width - line.venue.count))  \(line.count)\n"
        }
        return heading + "\n" + lines.joined()
    }

    /// What the command says when nothing is selected: `no check-ins of device 3f9c1a2b…`.
    public var nothing: String { "no check-ins " + whose }

    /// The question before erasing.
    public var question: String {
        count == 1 ? "Erase this check-in? [y/N] " : "Erase these \(count) check-ins? [y/N] "
    }

    /// What the command says once `erased` check-ins went: `erased 7 check-ins of that device`.
    public func erased(_ erased: Int) -> String {
        let amount = Self.checkIns(erased)
        return switch scope {
        case .device: "erased \(amount) of that device"
        case .phone: "erased \(amount) with that phone number"
        case .checkIn: "erased \(amount)"
        }
    }

    private var heading: String {
        switch scope {
        case .device, .phone: "\(Self.checkIns(count)) \(whose):"
        case .checkIn(let id, namesNoVisitor: false): "check-in \(id) alone:"
        case .checkIn(let id, namesNoVisitor: true): "check-in \(id), which names no device and no phone number (nothing links it to a visitor's other check-ins):"
        }
    }

    private var whose: String {
        switch scope {
        case .device(let device, ofCheckIn: nil): "of device \(Self.abbreviated(device))"
        case .device(let device, ofCheckIn: let id?): "of the device of check-in \(id) (\(Self.abbreviated(device)))"
        case .phone(let phone, ofCheckIn: nil): "with the phone number \(Self.masked(phone))"
        case .phone(let phone, ofCheckIn: let id?): "with the phone number of check-in \(id) (\(Self.masked(phone)))"
        case .checkIn(let id, _): "with id \(id)"
        }
    }

    /// `1 check-in`, `7 check-ins`.
    static func checkIns(_ count: Int) -> String { count == 1 ? "1 check-in" : "\(count) check-ins" }

    /// A device id as the table shows it (`DeviceID.shown`, 16 characters of 44), and an
    /// ellipsis; never more than half of a short one.
    static func abbreviated(_ device: DeviceID) -> String {
        device.rawValue.prefix(min(DeviceID.shownLength, device.rawValue.count / 2)) + "…"
    }

    /// A phone number's last four digits after an ellipsis: `…5678`.
    static func masked(_ phone: String) -> String { "…" + phone.suffix(4) }
}
