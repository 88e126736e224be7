import CheckInData
import CheckInDomain

/// The raw text of every setting in each layer that sets it (config file, then environment,
/// then flags), read once. A typed value is parsed from it per setting, on demand: a command
/// builds only what it uses, so a bad value of a setting it never reads cannot stop it.
struct SettingLayers: Sendable {
    /// One layer's text for a setting and where it came from.
    typealias Entry = (value: String, source: SettingSource)

    /// Per setting name, its entries from the lowest layer to the highest.
    private let entries: [String: [Entry]]
    /// The config files read, in layering order (SIGHUP reads them again).
    let configPaths: [String]

    /// Reads the layers: the config files (`--config`, repeatable, or `$QRCHECKIN_CONFIG`, a list; unknown and
    /// repeated keys are refused here, whatever the command), `QRCHECKIN_*` variables, flags.
    init(flags: ParsedArguments, environment: [String: String]) throws(CommandError) {
        // Several files layer in order (a venue's own file over the shared one); every line of
        // each is validated, so a bad line is reported even where a later file hides it.
        let files = try ConfigFileList(flags: flags.all("config"), environment: environment).read()
        configPaths = files.map(\.path)
        var entries: [String: [Entry]] = [:]
        for (path, lines) in files {
            for entry in lines {
                entries[entry.key, default: []].append((entry.value, .file(path: path, line: entry.line, key: entry.key)))
            }
        }
        for key in SettingKey.all {
            if let value = environment[key.environmentName], !value.isEmpty {
                entries[key.name, default: []].append((value, .environment(key.environmentName)))
            }
            if let value = flags[key.name] { entries[key.name, default: []].append((value, .flag(key.name))) }
        }
        self.entries = entries
    }

    /// The value of setting `name` from the highest layer that sets it, or nil. Every layer's
    /// text is parsed: a bad line in the file is an error even while a flag overrides it, so it
    /// cannot surprise anyone later. Errors name the source (flag, variable, or file:line: key).
    func value<T>(_ name: String, _ parse: (String, SettingSource) throws(CommandError) -> T) throws(CommandError) -> T? {
        var result: T?
        for entry in entries[name] ?? [] { result = try parse(entry.value, entry.source) }
        return result
    }
}

/// The config file: `key = value` lines with known, unrepeated keys.
enum ConfigFile {
    /// Reads `path`, rejecting unknown and repeated keys.
    static func read(_ path: String) throws(CommandError) -> [KeyValueFile.Entry] {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.read(path, limit: 64 * 1024)
        } catch {
            throw CommandError(.config, "cannot read config file: \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandError(.config, "\(path): not valid UTF-8")
        }
        let entries: [KeyValueFile.Entry]
        do {
            entries = try KeyValueFile.parse(text)
        } catch {
            throw CommandError(.config, "\(path):\(error.line): \(error.message)")
        }
        var seen: [String: Int] = [:]
        for entry in entries {
            if let first = seen[entry.key] {
                throw CommandError(.config, "\(path):\(entry.line): \(entry.key) is already set on line \(first)")
            }
            seen[entry.key] = entry.line
        }
        let known = Set(SettingKey.all.map(\.name))
        if let unknown = entries.first(where: { !known.contains($0.key) }) {
            throw CommandError(.config, "\(path):\(unknown.line): unknown key \(Quoted(unknown.key)) (known: \(SettingKey.all.map(\.name).joined(separator: ", ")))")
        }
        return entries
    }
}
