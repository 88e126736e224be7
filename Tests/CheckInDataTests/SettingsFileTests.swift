import CheckInData
import CheckInDomain
import Foundation
import Testing

@Suite struct KeyValueFileTests {
    @Test func parsesKeysValuesAndLineNumbersIgnoringCommentsAndBlanks() throws {
        let entries = try KeyValueFile.parse("# head\n\nvenue = HALL-1\r\n  period=30  \nbase-url = HTTPS://A.B/C=D\n")
        #expect(entries == [
            KeyValueFile.Entry(key: "venue", value: "HALL-1", line: 3),
            KeyValueFile.Entry(key: "period", value: "30", line: 4),
            KeyValueFile.Entry(key: "base-url", value: "HTTPS://A.B/C=D", line: 5),
        ])
    }

    @Test(arguments: [("venue HALL\n", 1, "expected 'key = value'"), ("a = 1\n = 2\n", 2, "missing key")])
    func namesTheLineOfASyntaxError(text: String, line: Int, message: String) {
        do {
            _ = try KeyValueFile.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line && error.message.contains(message))
        }
    }
}

@Suite struct SettingsFileTests {
    let path = NSTemporaryDirectory() + "settings-\(UUID().uuidString)"

    @Test func savesAndLoadsOperatorSettings() throws {
        let file = SettingsFile(path: path)
        #expect(try file.load() == nil)
        try file.save(OperatorSettings(shake: .off, refresh: .paused))
        #expect(try file.load() == OperatorSettings(shake: .off, refresh: .paused))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    @Test(arguments: [("shake = maybe\n", ":1: shake must be on or off"), ("x\n", ":1: expected"),
                      ("refresh = auto\ncolour = red\n", ":2: unknown key 'colour'")])
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
