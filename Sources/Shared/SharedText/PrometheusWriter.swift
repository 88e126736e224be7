import SharedJSON

/// Writes the Prometheus text exposition format (version 0.0.4) as UTF-8 bytes: a family's
/// `# HELP` and `# TYPE` lines, then its samples, `name{label="value",…} value`. The one
/// writer of both halves (the kiosk's `metrics.prom`, the server's `/metrics`).
///
/// Names, types and help texts are literals; label values are escaped as the format asks
/// (backslash, double quote and newline, its only escapes). Each line goes through one cursor
/// into the buffer, sized for that line: `metrics.prom` is written with every rotation, so no
/// String is built per line or per value (docs/BENCHMARKS.md).
public struct PrometheusWriter {
    /// What a family's samples measure (the `# TYPE` line).
    public enum MetricType {
        /// Only goes up (resets at a restart); its name ends in `_total`.
        case counter
        /// Goes up and down.
        case gauge
        /// Counts of observations in buckets, with `_bucket`, `_sum` and `_count` samples.
        case histogram

        fileprivate var name: StaticString {
            switch self {
            case .counter: "counter"
            case .gauge: "gauge"
            case .histogram: "histogram"
            }
        }
    }

    /// One label of a sample: a literal name and a value, escaped as it is written.
    public struct Label {
        /// The label's name (`venue`).
        public let name: StaticString
        /// The label's value, unescaped.
        public let value: String

        /// A label `name="value"`.
        public init(_ name: StaticString, _ value: String) {
            self.name = name
            self.value = value
        }

        /// The most bytes `name="value"` takes: every byte of the value escaped.
        fileprivate var room: Int { name.utf8CodeUnitCount + 3 + 2 * value.utf8.count }
    }

    /// A sample's value.
    public enum Value {
        /// A whole number, in decimal.
        case integer(Int64)
        /// `value` / 10^`digits` as an exact decimal (`1800000000.25`), trailing zeros dropped:
        /// milliseconds or microseconds as seconds, without a Double's rounding.
        case fixed(Int64, digits: Int)
        /// A floating-point number as Swift prints it (`0.25`, `1.5e-05`).
        case double(Double)

        /// A count.
        public static func count(_ value: Int) -> Value { .integer(Int64(value)) }

        /// The most bytes any value takes: an Int64 with its sign, a point and its digits, or
        /// Swift's longest Double (`-2.2250738585072014e-308`).
        fileprivate static let room = 32
    }

    /// The exposition so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty exposition, with room for `capacity` bytes before it grows.
    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The exposition so far, as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Introduces a family: `# HELP name help` and `# TYPE name type`. `help` has no backslash
    /// and no newline (the format would want them escaped).
    public mutating func family(_ name: StaticString, _ type: MetricType, _ help: StaticString) {
        let typeName = type.name
        bytes.append(capacity: 2 * name.utf8CodeUnitCount + help.utf8CodeUnitCount + typeName.utf8CodeUnitCount + 18) { out in
            out.write("# HELP ")
            out.write(name)
            out.write(byte: UInt8(ascii: " "))
            out.write(help)
            out.write("\n# TYPE ")
            out.write(name)
            out.write(byte: UInt8(ascii: " "))
            out.write(typeName)
            out.write(byte: 0x0A)
        }
    }

    /// A sample without labels: `name value`.
    public mutating func sample(_ name: StaticString, _ value: Value) {
        line(name, nil, nil, value)
    }

    /// A sample with one label: `name{label="…"} value`.
    public mutating func sample(_ name: StaticString, _ label: Label, _ value: Value) {
        line(name, label, nil, value)
    }

    /// A sample with two labels, in this order: `name{first="…",second="…"} value`.
    public mutating func sample(_ name: StaticString, _ first: Label, _ second: Label, _ value: Value) {
        line(name, first, second, value)
    }

    private mutating func line(_ name: StaticString, _ first: Label?, _ second: Label?, _ value: Value) {
        let room = name.utf8CodeUnitCount + (first?.room ?? 0) + (second?.room ?? 0) + 4 + Value.room
        bytes.append(capacity: room) { out in
            out.write(name)
            if let first {
                out.write(byte: UInt8(ascii: "{"))
                Self.write(first, to: &out)
                if let second {
                    out.write(byte: UInt8(ascii: ","))
                    Self.write(second, to: &out)
                }
                out.write(byte: UInt8(ascii: "}"))
            }
            out.write(byte: UInt8(ascii: " "))
            Self.write(value, to: &out)
            out.write(byte: 0x0A)
        }
    }

    /// `name="value"`, the value escaped: `\\`, `\"` and `\n`; runs of other bytes copied whole.
    private static func write(_ label: Label, to out: inout ByteCursor) {
        out.write(label.name)
        out.write("=\"")
        var value = label.value
        value.withUTF8 { bytes in
            var run = 0  // start of the pending run of plain bytes
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") || byte == 0x0A {
                out.write(UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + 1
                out.write(byte: UInt8(ascii: "\\"))
                out.write(byte: byte == 0x0A ? UInt8(ascii: "n") : byte)
            }
            out.write(UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        out.write(byte: UInt8(ascii: "\""))
    }

    private static func write(_ value: Value, to out: inout ByteCursor) {
        switch value {
        case .integer(let integer):
            out.write(integer)
        case .fixed(let scaled, let digits):
            write(scaled, digits: digits, to: &out)
        case .double(let double):
            out.write(utf8: "\(double)")
        }
    }

    /// `value` / 10^digits as exact decimal seconds (`1800000000.25`), trailing zeros dropped.
    private static func write(_ value: Int64, digits: Int, to out: inout ByteCursor) {
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        if value < 0 { out.write(byte: UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        out.write(Int64(magnitude / scale))
        var fraction = magnitude % scale
        guard fraction > 0 else { return }
        out.write(byte: UInt8(ascii: "."))
        var width = digits
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        var divisor = scale / 10
        for _ in 0..<(digits - width) { divisor /= 10 }
        while width > 0 {
            out.write(byte: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: fraction / divisor))
            fraction %= divisor
            divisor /= 10
            width -= 1
        }
    }
}
