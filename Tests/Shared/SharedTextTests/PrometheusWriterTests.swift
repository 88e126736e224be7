import SharedText
import Testing

/// The one Prometheus text writer: HELP and TYPE lines, samples with none, one or two labels,
/// label values escaped as the exposition format says, and exact values.
@Suite struct PrometheusWriterTests {
    @Test func aFamilyIsItsHelpAndTypeLinesThenItsSamples() {
        var out = PrometheusWriter()
        out.family("jobs_total", .counter, "Jobs done, by queue.")
        out.sample("jobs_total", PrometheusWriter.Label("queue", "a"), .count(3))
        out.sample("jobs_total", PrometheusWriter.Label("queue", "b"), PrometheusWriter.Label("host", "h1"), .integer(-4))
        out.family("up", .gauge, "1 when up.")
        out.sample("up", .integer(1))
        out.family("latency_seconds", .histogram, "How long.")
        out.sample("latency_seconds_sum", .double(0.25))
        #expect(out.text == """
            # HELP jobs_total Jobs done, by queue.
            # TYPE jobs_total counter
            jobs_total{queue="a"} 3
            jobs_total{queue="b",host="h1"} -4
            # HELP up 1 when up.
            # TYPE up gauge
            up 1
            # HELP latency_seconds How long.
            # TYPE latency_seconds histogram
            latency_seconds_sum 0.25

            """)
        #expect(out.bytes == Array(out.text.utf8))
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("a\"b", "a\\\"b"),
        ("back\\slash", "back\\\\slash"),
        ("two\nlines", "two\\nlines"),
        ("\\\"\n", "\\\\\\\"\\n"),
        ("tab\there\r", "tab\there\r"),  // the format escapes nothing else
        ("안녕 \"홀\"", "안녕 \\\"홀\\\""),
        ("dos\r\nline", "dos\r\\nline"),  // a newline is escaped even inside a CRLF pair
    ])
    func labelValuesEscapeBackslashDoubleQuoteAndNewlineOnly(value: String, escaped: String) {
        var out = PrometheusWriter()
        out.sample("m", PrometheusWriter.Label("l", value), PrometheusWriter.Label("k", value), .integer(0))
        #expect(out.text == "m{l=\"\(escaped)\",k=\"\(escaped)\"} 0\n")
    }

    @Test func aLongLabelValueFitsItsLine() {
        let value = String(repeating: "\"\\\n", count: 2000)
        var out = PrometheusWriter()
        out.sample("m", PrometheusWriter.Label("l", value), .integer(Int64.min))
        #expect(out.text == "m{l=\"" + String(repeating: "\\\"\\\\\\n", count: 2000) + "\"} -9223372036854775808\n")
    }

    @Test(arguments: [
        (Int64(1_800_000_004_250), 3, "1800000004.25"),
        (1_800_000_004_000, 3, "1800000004"),
        (7, 3, "0.007"),
        (-1_250, 3, "-1.25"),
        (1_500, 6, "0.0015"),
        (16_000_000, 6, "16"),
        (-3, 6, "-0.000003"),
        (0, 6, "0"),
    ])
    func fixedValuesAreExactDecimalsWithoutTrailingZeros(scaled: Int64, digits: Int, text: String) {
        var out = PrometheusWriter()
        out.sample("m", .fixed(scaled, digits: digits))
        #expect(out.text == "m \(text)\n")
    }

    @Test func doublesAreWrittenAsSwiftPrintsThem() {
        for value in [0.0, 0.25, 1.5e-05, 103.3015001, 1e300] {
            var out = PrometheusWriter()
            out.sample("m", .double(value))
            #expect(out.text == "m \(value)\n")
        }
    }
}
