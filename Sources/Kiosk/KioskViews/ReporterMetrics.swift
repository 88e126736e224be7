import KioskCore
import SharedText

/// `report.prom`: the reporter's counts in the Prometheus text format, beside `report.json`
/// (and copied into `metrics-dir` as `qrcheckin-report-VENUE.prom`). Every sample carries the
/// `venue` and `kiosk` labels. docs/METRICS.md documents each metric.
public struct ReporterMetrics: Sendable {
    /// The status the file describes.
    public var status: ReporterStatus

    /// The document for `status`.
    public init(status: ReporterStatus) {
        self.status = status
    }

    /// The exposition text as UTF-8.
    public var bytes: [UInt8] {
        var out = PrometheusWriter(capacity: 2048 + 16 * (status.venue.utf8.count + status.kiosk.utf8.count))
        let venue = PrometheusWriter.Label("venue", status.venue)
        let kiosk = PrometheusWriter.Label("kiosk", status.kiosk)
        func one(_ name: StaticString, _ type: PrometheusWriter.MetricType, _ help: StaticString, _ value: PrometheusWriter.Value) {
            out.family(name, type, help)
            out.sample(name, venue, kiosk, value)
        }
        one("qrcheckin_reports_sent_total", .counter, "Reports sent to the check-in server since the reporter started.", .integer(status.sent))
        one("qrcheckin_reports_failed_total", .counter,
            "Reports that failed: no answer, refused, or an answer not signed with the venue's report key.", .integer(status.failed))
        one("qrcheckin_report_failures_in_a_row", .gauge, "Failed reports since the last one answered (0 while reporting works).",
            .integer(status.failuresInARow))
        if let lastOk = status.lastOkAt {
            one("qrcheckin_report_last_ok_timestamp_seconds", .gauge, "When a report was last answered and verified, in Unix seconds.",
                .integer(lastOk))
        }
        if let roundTrip = status.lastRoundTripMs {
            one("qrcheckin_report_round_trip_seconds", .gauge, "The last answered report's round trip, including the server's hold.",
                .fixed(roundTrip, digits: 3))
        }
        one("qrcheckin_report_updated_timestamp_seconds", .gauge, "When this file was written, in Unix seconds.", .integer(status.updatedAt))
        return out.bytes
    }
}
