@testable import qrcheckin_server
import Foundation
import SharedCLI
import Testing

/// What the documents say of the settings, checked against their declarations (`ServerSetting`):
/// docs/SERVER.md's table lists every setting once with its default, its per-venue sentence
/// names the scoped ones, and the packaged config file sets only keys that exist, to values
/// they take. (`serve --help` and the man page are made from the declarations themselves.)
@Suite struct ServerSettingDocumentTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// docs/SERVER.md's "Settings" section, from its heading to the next.
    private func settingsSection() throws -> String {
        let text = try read("docs/SERVER.md")
        let start = try #require(text.range(of: "\n## Settings\n"))
        let end = text.range(of: "\n## ", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        return String(text[start.upperBound..<end])
    }

    /// The names between backquotes in `text`, in order.
    private func quotedNames(_ text: some StringProtocol) -> [String] {
        String(text).matches(of: /`([a-z][a-z.-]*)`/).map { String($0.1) }
    }

    @Test func serverMdsTableListsEverySettingOnceWithItsDefault() throws {
        var defaults: [String: String] = [:]
        var listed: [String] = []
        for line in try settingsSection().split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let names = quotedNames(cells[1])
            // `period`, `skew` | 15, 1: one default each.
            let values = names.count > 1 ? cells[2].components(separatedBy: ", ") : [cells[2]]
            try #require(values.count == names.count, "\(line)")
            for (name, value) in zip(names, values) {
                listed.append(name)
                defaults[name] = value.replacingOccurrences(of: "`", with: "")
            }
        }
        let declared = ServerSetting.all.map(\.key.name)
        #expect(Set(listed).count == listed.count, "a setting listed twice")
        #expect(Set(listed) == Set(declared), "missing: \(Set(declared).subtracting(listed).sorted()); unknown: \(Set(listed).subtracting(declared).sorted())")
        for setting in ServerSetting.all {
            guard let text = setting.defaultText else { continue }
            #expect(defaults[setting.key.name] == text, "SERVER.md's default of \(setting.key.name) is its declaration's, \(text)")
        }
    }

    @Test func serverMdNamesTheSettingsAVenueMaySet() throws {
        let section = try settingsSection().replacingOccurrences(of: "\n", with: " ")
        let sentence = try #require(section.firstMatch(of: /Per venue, a config file may set (.+?) as `KEY.VENUE`/)).1
        let named = quotedNames(sentence)
        #expect(named.sorted() == ServerSetting.scoped.map(\.name).filter { $0 != ServerSetting.exit.name }.sorted())
        #expect(section.contains("and `exit` only so"))
    }

    @Test func thePackagedConfigSetsKnownKeysToValuesTheyTake() throws {
        let text = try read("server/qrcheckin-server.conf")
        var checked = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // A commented setting: `#key = value` or `#key.VENUE = value` (prose is `# …`).
            guard let match = line.wholeMatch(of: /#([a-z][a-z-]*)(\.[A-Z0-9.-]+)? = (.*)/) else { continue }
            let name = String(match.1), key = name + (match.2.map(String.init) ?? ""), value = String(match.3)
            let setting = try #require(ServerSetting.all.first { $0.key.name == name }, "line \(number + 1): unknown key \(name)")
            if match.2 != nil { #expect(setting.key.scoped, "line \(number + 1): \(name) is not set per venue") }
            // A logo is read when parsed; the example names a file only a real install has.
            guard name != ServerSetting.logo.name else { continue }
            #expect(throws: Never.self, "line \(number + 1)") {
                _ = try setting.isDefault(value, file: "qrcheckin-server.conf", line: number + 1, key: key)
            }
            checked += 1
        }
        #expect(checked >= 20)
    }
}
