import CheckInData
import CheckInDomain
import Foundation
import Testing

@Suite struct SettingsFileTests {
    let path = testRoot + "/settings-\(UUID().uuidString)"

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
