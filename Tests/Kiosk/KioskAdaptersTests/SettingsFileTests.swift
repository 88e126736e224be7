import Foundation
import KioskAdapters
import KioskCore
import SharedDomain
import Testing

@Suite struct SettingsFileTests {
    let path = testRoot + "/settings-\(UUID().uuidString)"

    @Test func savesAndLoadsOperatorSettingsAndTheIssueRecord() throws {
        let file = SettingsFile(path: path)
        #expect(try file.load() == nil)
        var record = IssueRecord()
        record.record(venue: try VenueID("HALL-1"), periodSeconds: 15, window: 120_000_000, sequence: 3, at: 1_800_000_004)
        record.record(venue: .demo, periodSeconds: 3600, window: -2, sequence: 0, at: 1_800_000_009)
        let state = SavedState(settings: OperatorSettings(shake: .off, refresh: .paused), issued: record)
        try file.save(state)
        #expect(try file.load() == state)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("shake = off\nrefresh = paused\nissued = HALL-1 15 120000000 3\nissued = DEMO 3600 -2 0\n"
            + "clock-high-water = 1800000009\n"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    @Test func whoSetTheModesIsSavedWithThem() throws {
        let file = SettingsFile(path: path)
        let change = ModeChange(source: .console, by: OperatorName("mina"), at: 1_800_000_000)
        let state = SavedState(settings: OperatorSettings(shake: .on, refresh: .paused, change: change))
        try file.save(state)
        #expect(try file.load() == state)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("mode-source = console\nmode-changed-by = mina\nmode-changed-at = 1800000000\n"))
        let daemon = SavedState(settings: OperatorSettings(refresh: .paused, change: ModeChange(source: .daemon, by: nil, at: 5)))
        try file.save(daemon)
        #expect(try file.load() == daemon)
        try "mode-source = console\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: SettingsStoreError.self) { try file.load() }
        try "mode-changed-by = mina kim\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: SettingsStoreError.self) { try file.load() }
    }

    @Test func aFileWithoutARecordLoadsWithNoHighWaterMark() throws {
        try "shake = off\nrefresh = auto\n".write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try SettingsFile(path: path).load()
        #expect(loaded == SavedState(settings: OperatorSettings(shake: .off, refresh: .auto)))
        #expect(loaded?.issued.highWater == nil, "the daemon counts such a record as lost (DaemonCore)")
    }

    @Test(arguments: [("shake = maybe\n", ":1: shake must be on or off"), ("x\n", ":1: expected"),
                      ("refresh = auto\ncolour = red\n", ":2: unknown key 'colour'"),
                      ("issued = DEMO 15 1\n", ":1: issued must be 'VENUE PERIOD WINDOW SEQ'"),
                      ("issued = demo 15 1 0\n", ":1: issued must be"), ("issued = DEMO 0 1 0\n", ":1: issued must be"),
                      ("issued = DEMO 15 1 4294967296\n", ":1: issued must be"),
                      ("clock-high-water = soon\n", ":1: clock-high-water must be a Unix time")])
    func aDamagedFileIsReportedWithItsLine(text: String, message: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try SettingsFile(path: path).load()
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message == path + message || error.message.hasPrefix(path + message), "\(error.message)")
        }
    }
}
