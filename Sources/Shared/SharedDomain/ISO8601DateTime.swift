/// A date and time as ISO 8601 writes it: `YYYY-MM-DD[T ]HH:MM[:SS[.fraction]]`, then `Z`,
/// `±HH[:MM]` or nothing (a local time). The one reader of typed times: `--at`, `--from` and
/// `--until` take it with a zone (`TimeArgument`), the console's search also without one
/// (what `<input type="datetime-local">` sends), read in the server's zone.
public struct ISO8601DateTime: Equatable, Sendable {
    /// The calendar date.
    public let date: CivilDate
    /// Seconds since the date's midnight (a leap second's `:60` included; a fraction dropped:
    /// codes change on whole seconds).
    public let secondOfDay: Int64
    /// Seconds east of UTC the text named; nil when it named no zone.
    public let offsetSeconds: Int64?

    /// `text` read, or nil when it is not one of the forms above (years 0000-9999, a real
    /// date, hours 0-23, minutes 0-59, seconds 0-60, a zone within ±23:59).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("Tt "), let hour = number(2), expect(":"), let minute = number(2) else { return nil }
        var second: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            guard let value = number(2) else { return nil }
            second = value
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                index += 1
                let start = index
                while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
                guard index > start else { return nil }
            }
        }
        var offset: Int64?
        if expect("Zz") {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            var minutes: Int64 = 0
            if index < bytes.count {
                _ = expect(":")
                guard let value = number(2) else { return nil }
                minutes = value
            }
            guard hours <= 23, minutes <= 59 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        date = CivilDate(year: year, month: month, day: day)
        secondOfDay = hour * 3600 + minute * 60 + second
        offsetSeconds = offset
    }

    /// The Unix time it names, when it named a zone (a local time means different moments on
    /// different hosts: the caller decides which zone, if any).
    public var unixSeconds: Int64? {
        offsetSeconds.map { localSeconds - $0 }
    }

    /// The date and time read as if in UTC (for a caller that applies a zone itself).
    public var localSeconds: Int64 {
        date.daysSince1970 * 86_400 + secondOfDay
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
