import CheckInData
import Foundation
import Testing

/// The textfile collector's copy: one file per venue, failures logged when they start and end.
@Suite struct MetricsDirectorySinkTests {
    @Test func writesOneFilePerVenueAndLogsFailuresOnceEachWay() throws {
        let directory = temporaryDirectory("metrics-sink")
        let sink = MetricsDirectorySink(directory: directory)
        #expect(sink.write(Array("a 1\n".utf8), venue: "DEMO") == nil)
        #expect(try String(contentsOfFile: directory + "/qrcheckin-DEMO.prom", encoding: .utf8) == "a 1\n")
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/qrcheckin-DEMO.prom")[.posixPermissions] as? Int
        #expect(mode == 0o644, "node_exporter runs as another user")

        // A reload that switches venues leaves no stale file of the old one behind.
        #expect(sink.write(Array("a 2\n".utf8), venue: "HALL-1") == nil)
        #expect(!FileManager.default.fileExists(atPath: directory + "/qrcheckin-DEMO.prom"))

        try FileManager.default.removeItem(atPath: directory)
        let failed = sink.write(Array("a 3\n".utf8), venue: "HALL-1")
        #expect(failed?.level == .warning && failed?.line.hasPrefix("cannot write metrics into \(directory): ") == true)
        #expect(sink.write(Array("a 4\n".utf8), venue: "HALL-1") == nil, "logged once, not at every write")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(sink.write(Array("a 5\n".utf8), venue: "HALL-1")?.line == "metrics are written into \(directory) again")
        #expect(try String(contentsOfFile: directory + "/qrcheckin-HALL-1.prom", encoding: .utf8) == "a 5\n")
        try? FileManager.default.removeItem(atPath: directory)
    }
}
