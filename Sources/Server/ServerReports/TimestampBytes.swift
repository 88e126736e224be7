import ServerDomain
import SharedDomain

/// Times and numbers written straight into a byte buffer: an export writes a million rows, and
/// building a String for every field was most of its time.
enum TimestampBytes {
    /// `2026-11-30T05:03:27.120Z`.
    static func appendUTC(_ time: WallTime, to out: inout [UInt8]) {
        let (seconds, millis) = floorDivide(time.milliseconds, 1000)
        appendDateTime(seconds, to: &out)
        out.append(UInt8(ascii: "."))
        out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: millis / 100))
        appendTwo(millis % 100, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// `2026-11-30T14:03:27+09:00`: the moment in a zone `offsetSeconds` east of UTC.
    static func appendLocal(_ time: WallTime, offsetSeconds: Int, to out: inout [UInt8]) {
        let (seconds, _) = floorDivide(time.milliseconds, 1000)
        appendDateTime(seconds + Int64(offsetSeconds), to: &out)
        appendOffset(offsetSeconds, to: &out)
    }

    /// `+09:00`, `-03:30`.
    static func appendOffset(_ offsetSeconds: Int, to out: inout [UInt8]) {
        out.append(offsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let magnitude = Int64(abs(offsetSeconds))
        appendTwo(magnitude / 3600, to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwo(magnitude / 60 % 60, to: &out)
    }

    /// `2026-11-30`.
    static func appendDate(_ day: CalendarDay, to out: inout [UInt8]) {
        let (year, month, dayOfMonth) = day.civil
        appendDigits(year, count: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendTwo(month, to: &out)
        out.append(UInt8(ascii: "-"))
        appendTwo(dayOfMonth, to: &out)
    }

    /// `2026-11-30T14:03:27` for Unix second `seconds` read as UTC.
    private static func appendDateTime(_ seconds: Int64, to out: inout [UInt8]) {
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        appendDate(CalendarDay(daysSince1970: days), to: &out)
        out.append(UInt8(ascii: "T"))
        appendTwo(secondOfDay / 3600, to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwo(secondOfDay / 60 % 60, to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwo(secondOfDay % 60, to: &out)
    }

    /// `value` (0-99) as two digits.
    static func appendTwo(_ value: Int64, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }

    /// `value` in decimal, zero-padded to at least `count` digits. Plain loops, no generics:
    /// this runs ten times a row, and unoptimised builds pay dearly for abstractions.
    static func appendDigits(_ value: Int64, count: Int = 1, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt64 = 1
        var digits = 1
        while digits < count || (digits < 20 && magnitude / divisor >= 10) {
            divisor *= 10
            digits += 1
        }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// Quotient and remainder rounded towards minus infinity (times before 1970 too).
    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }
}
