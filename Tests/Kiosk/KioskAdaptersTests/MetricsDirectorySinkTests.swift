import Foundation
import KioskAdapters
import KioskCore
import Testing

/// The textfile collector's copy: one file per venue; a failure is thrown naming the directory
/// (the daemon core decides when it is logged: DaemonCoreMetricsTests).
@Suite struct MetricsDirectorySinkTests {
    @Test func writesOneFilePerVenueAndThrowsWhenTheDirectoryIsGone() throws {
        let directory = temporaryDirectory("metrics-sink")
        let sink = MetricsDirectorySink(directory: directory)
        try sink.write(Array("a 1\n".utf8), venue: "DEMO")
        #expect(try String(contentsOfFile: directory + "/qrcheckin-DEMO.prom", encoding: .utf8) == "a 1\n")
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/qrcheckin-DEMO.prom")[.posixPermissions] as? Int
        #expect(mode == 0o644, "node_exporter runs as another user")

        // A reload that switches venues leaves no stale file of the old one behind.
        try sink.write(Array("a 2\n".utf8), venue: "HALL-1")
        #expect(!FileManager.default.fileExists(atPath: directory + "/qrcheckin-DEMO.prom"))

        try FileManager.default.removeItem(atPath: directory)
        #expect(throws: OutputSinkError.self) { try sink.write(Array("a 3\n".utf8), venue: "HALL-1") }
        do {
            try sink.write(Array("a 3\n".utf8), venue: "HALL-1")
        } catch {
            #expect(error.message.contains(directory))
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try sink.write(Array("a 5\n".utf8), venue: "HALL-1")
        #expect(try String(contentsOfFile: directory + "/qrcheckin-HALL-1.prom", encoding: .utf8) == "a 5\n")
        try? FileManager.default.removeItem(atPath: directory)
    }
}
