import SharedDomain

/// `--at` and `--period` as people type them, oathtool style: Unix seconds (`1700000000`,
/// `@1700000000`), `now`, or an ISO 8601 date-time with a zone; periods as `15`, `15s`, `1m`.
public enum TimeArgument {
    /// Why a moment or period was refused; the text completes "--at must be …".
    public struct Invalid: Error {
        /// The words completing "--at must be …".
        public let reason: String
    }

    /// The Unix time `text` names, within `CheckInTime.supported`; `now` is the current time.
    public static func moment(_ text: String, now: Int64) throws(Invalid) -> Int64 {
        let range = CheckInTime.supported
        let rangeText = "within ±10^15 Unix seconds"
        if text == "now" { return now }
        let digits = text.hasPrefix("@") ? String(text.dropFirst()) : text
        // Whole seconds, however many digits: one too large for Int64 is out of range, not
        // of another format (`99999999999999999999` got the format message).
        let unsigned = digits.hasPrefix("-") ? digits.dropFirst() : Substring(digits)
        if !unsigned.isEmpty, unsigned.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Int64(digits), range.contains(seconds) else {
                throw Invalid(reason: "\(rangeText), got \(Quoted(text))")
            }
            return seconds
        }
        if let seconds = iso8601(text) { return seconds }
        throw Invalid(reason: "Unix seconds (1700000000 or @1700000000), 'now', or an ISO 8601 time with a zone "
            + "(2026-11-30T09:00:00Z, 2026-11-30T18:00:00+09:00) \(rangeText), got \(Quoted(text))")
    }

    /// A period: whole seconds, optionally with `s`, or whole minutes with `m`, 1-3600 seconds.
    public static func period(_ text: String) -> RotationPeriod? {
        var number = Substring(text), unit = 1
        if number.hasSuffix("s") { number = number.dropLast() } else if number.hasSuffix("m") { number = number.dropLast(); unit = 60 }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }), number.count <= 6, let value = Int(number) else { return nil }
        return try? RotationPeriod(seconds: value * unit)
    }

    /// The period setting from any layer (flag, variable, config line), for every command:
    /// one spelling rule and one message, naming where the bad value came from.
    public static func period(_ text: String, from source: SettingSource) throws(CommandError) -> RotationPeriod {
        guard let period = period(text) else {
            throw source.error("must be a whole number of seconds from 1 to 3600 (15, 15s or 1m), got \(Quoted(text))")
        }
        return period
    }

    /// `YYYY-MM-DD[T ]HH:MM[:SS[.fraction]]` then `Z` or `±HH[:MM]`; years 0000-9999.
    /// The fraction is dropped (codes change on whole seconds; floor for times after 1970).
    public static func iso8601(_ text: String) -> Int64? {
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
        var offset: Int64 = 0
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
        } else {
            return nil  // a zone is required: a local time would mean different codes on different hosts
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        return CivilDate(year: year, month: month, day: day).daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second - offset
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
