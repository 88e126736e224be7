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
    /// A zone is required: a local time would mean different codes on different hosts. The
    /// grammar is `ISO8601DateTime`'s, which the console's search reads too.
    public static func iso8601(_ text: String) -> Int64? {
        ISO8601DateTime(text)?.unixSeconds
    }
}
