import KioskCore
import SharedJSON

/// `metrics.prom`: the daemon's state and counters in the Prometheus text exposition format
/// (version 0.0.4), for node_exporter's textfile collector or any scraper of the file.
///
/// Names follow Prometheus conventions: a `qrcheckin_` prefix, base units (`_seconds`,
/// Unix timestamps as `_timestamp_seconds`), `_total` on counters, one `venue` label on every
/// sample so several daemons can share one textfile directory. The file is written with each
/// state change and, for counter-only changes, at most once a second; a countdown would be
/// stale the moment it was written, so expiry is a timestamp (`… - time()` in PromQL).
/// docs/METRICS.md documents each metric.
public struct MetricsDocument: Sendable {
    /// The state the files beside it show.
    public var state: CheckInState
    /// The counters at the time of writing.
    public var counters: DaemonCounters
    /// The venue served.
    public var venue: String
    /// The rotation period in seconds.
    public var period: Int
    /// The daemon's version.
    public var version: String

    /// Creates the document.
    public init(state: CheckInState, counters: DaemonCounters, venue: String, period: Int, version: String) {
        self.state = state
        self.counters = counters
        self.venue = venue
        self.period = period
        self.version = version
    }

    /// The exposition text: `# HELP`, `# TYPE`, then the samples of each metric.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The exposition text as UTF-8, written through one cursor into one buffer: a byte template
    /// (names, help and labels are literals, only the values vary). It goes out with every
    /// rotation, so no String is built per line or per value (docs/BENCHMARKS.md).
    public var bytes: [UInt8] {
        let venueLabel = Self.labelValue(venue), versionLabel = Self.labelValue(version)
        var out: [UInt8] = []
        // The literals come to ~2.8 kB; the two label values appear once a sample (27 samples).
        out.append(capacity: 4096 + 32 * venueLabel.count + versionLabel.count) { out in
            func header(_ name: StaticString, _ type: StaticString, _ help: StaticString) {
                out.write("# HELP ")
                out.write(name)
                out.write(byte: 0x20)
                out.write(help)
                out.write("\n# TYPE ")
                out.write(name)
                out.write(byte: 0x20)
                out.write(type)
                out.write(byte: 0x0A)
            }
            /// `name{venue="…"[,label]} ` and then the caller writes the value and a newline.
            func sample(_ name: StaticString, _ label: () -> Void = {}) {
                out.write(name)
                out.write("{venue=\"")
                out.write(venueLabel)
                out.write(byte: UInt8(ascii: "\""))
                label()
                out.write("} ")
            }
            func one(_ name: StaticString, _ type: StaticString, _ help: StaticString, _ value: Int64) {
                header(name, type, help)
                sample(name)
                out.write(value)
                out.write(byte: 0x0A)
            }
            func flag(_ value: Bool) -> Int64 { value ? 1 : 0 }

            header("qrcheckin_build_info", "gauge", "Always 1; the version label names the running qrcheckin.")
            sample("qrcheckin_build_info") {
                out.write(",version=\"")
                out.write(versionLabel)
                out.write(byte: UInt8(ascii: "\""))
            }
            out.write("1\n")
            header("qrcheckin_rotations_total", "counter", "Codes issued since start, by cause (window, shake, refresh-now, reload).")
            for cause in RotationCause.allCases {
                sample("qrcheckin_rotations_total") {
                    out.write(",cause=\"")
                    out.write(utf8: cause.rawValue)
                    out.write(byte: UInt8(ascii: "\""))
                }
                out.write(Int64(counters.rotations[cause] ?? 0))
                out.write(byte: 0x0A)
            }
            one("qrcheckin_output_write_failures_total", "counter", "Attempts to put the outputs in place that failed (nothing was replaced).",
                Int64(counters.writeFailures))
            one("qrcheckin_state_save_failures_total", "counter", "Saves of the settings and issue record that failed (codes pause until one succeeds).",
                Int64(counters.saveFailures))
            one("qrcheckin_control_requests_total", "counter", "Control socket requests answered, including malformed ones.",
                Int64(counters.requests))
            one("qrcheckin_control_refusals_total", "counter", "Peers the control socket turned away (not root, the daemon's user or the ops group).",
                Int64(counters.refusals))
            one("qrcheckin_ignored_shakes_total", "counter", "Shakes ignored because shake mode is off.", Int64(counters.ignoredShakes))
            one("qrcheckin_coalesced_shakes_total", "counter", "Shakes within a second of the last honoured one: answered with its code, nothing written.",
                Int64(counters.coalescedShakes))
            one("qrcheckin_healthy", "gauge", "1 when the outputs are current, 0 when degraded (see current.json's reason).",
                flag(state.health == .ok))
            header("qrcheckin_state", "gauge", "1 for the daemon's current state, 0 for the others.")
            let current = Self.name(of: state.phase)
            for name in Self.states {
                sample("qrcheckin_state") {
                    out.write(",state=\"")
                    out.write(utf8: name)
                    out.write(byte: UInt8(ascii: "\""))
                }
                out.write(flag(name == current))
                out.write(byte: 0x0A)
            }
            one("qrcheckin_shake_enabled", "gauge", "1 when shake mode is on.", flag(state.settings.shake == .on))
            one("qrcheckin_refresh_auto", "gauge", "1 when refresh mode is auto, 0 when an operator paused it.",
                flag(state.settings.refresh == .auto))
            one("qrcheckin_period_seconds", "gauge", "The rotation period.", Int64(period))
            if let code = state.code {
                one("qrcheckin_code_expiry_timestamp_seconds", "gauge", "When the code on disk expires, in Unix seconds.", code.expiresAt)
                one("qrcheckin_code_window", "gauge", "The window counter of the code on disk (Unix time / period).", code.window)
                one("qrcheckin_code_sequence", "gauge", "The sequence number of the code on disk within its window.", Int64(code.sequence))
            }
            if let last = counters.lastRotation {
                header("qrcheckin_last_rotation_timestamp_seconds", "gauge", "When the last code was issued, in Unix seconds.")
                sample("qrcheckin_last_rotation_timestamp_seconds")
                Self.write(last.milliseconds, digits: 3, to: &out)
                out.write(byte: 0x0A)
            }
            if let synchronized = state.clock.synchronized {
                one("qrcheckin_clock_synchronized", "gauge", "1 when the kernel says the wall clock is synchronised (NTP), else 0.",
                    flag(synchronized))
            }
            if let error = state.clock.maxErrorMicroseconds {
                header("qrcheckin_clock_max_error_seconds", "gauge", "The kernel's estimated maximum error of the wall clock.")
                sample("qrcheckin_clock_max_error_seconds")
                Self.write(error, digits: 6, to: &out)
                out.write(byte: 0x0A)
            }
            one("qrcheckin_metrics_updated_timestamp_seconds", "gauge", "When this file was written, in Unix seconds.",
                state.updatedAt.seconds)
        }
        return out
    }

    /// A label value escaped (`escape`), as bytes.
    private static func labelValue(_ value: String) -> [UInt8] {
        var needsEscape = false
        for byte in value.utf8 where byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") || byte == 0x0A { needsEscape = true }
        return Array((needsEscape ? escape(value) : value).utf8)
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

    /// Every value of `qrcheckin_state`'s label.
    public static let states = ["running", "paused", "waiting", "stopped"]

    /// The state's name, as `current.json` writes it.
    static func name(of phase: CheckInState.Phase) -> String {
        switch phase {
        case .showing: "running"
        case .paused: "paused"
        case .waitingForClock: "waiting"
        case .stopped: "stopped"
        }
    }

    /// Label values escape backslash, double quote and newline (the format's only escapes).
    static func escape(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}
