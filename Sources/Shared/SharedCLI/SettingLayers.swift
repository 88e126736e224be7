import SharedDomain
import SharedSystem

/// The raw text of every setting in each layer that sets it (config file, then environment,
/// then flags), read once. A typed value is parsed from it per setting, on demand: a command
/// builds only what it uses, so a bad value of a setting it never reads cannot stop it.
public struct SettingLayers: Sendable {
    /// One layer's text for a setting and where it came from.
    public typealias Entry = (value: String, source: SettingSource)

    /// Per setting name, its entries from the lowest layer to the highest.
    private let entries: [String: [Entry]]
    /// The config files read, in layering order (SIGHUP reads them again).
    public let configPaths: [String]

    /// Reads the layers: the config files (`--config`, repeatable, or the catalog's variable,
    /// a list; unknown and repeated keys are refused here, whatever the command), the
    /// settings' variables, flags. `installed` are config files read (each optional) when
    /// neither `--config` nor the variable names any (`ConfigFileList`).
    public init(flags: ParsedArguments, environment: [String: String], catalog: SettingCatalog,
                installed: [String] = []) throws(CommandError) {
        // Several files layer in order (a venue's own file over the shared one); every line of
        // each is validated, so a bad line is reported even where a later file hides it.
        let files = try ConfigFileList(flags: flags.all("config"), environment: environment, variable: catalog.configVariable,
                                        installed: installed)
            .read(catalog: catalog)
        configPaths = files.map(\.path)
        var entries: [String: [Entry]] = [:]
        for (path, lines) in files {
            for entry in lines {
                entries[entry.key, default: []].append((entry.value, .file(path: path, line: entry.line, key: entry.key)))
            }
        }
        for key in catalog.keys {
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
    /// Internal: programs read a declared `Setting` (`value(_:)`), so a misspelt name cannot compile.
    func value<T>(_ name: String, _ parse: (String, SettingSource) throws(CommandError) -> T) throws(CommandError) -> T? {
        var result: T?
        for entry in entries[name] ?? [] { result = try parse(entry.value, entry.source) }
        return result
    }

    /// The scopes a scoped setting is set for in the config files (`HALL-1` of
    /// `duplicate-time.HALL-1`), sorted.
    public func scopes(of key: SettingKey) -> [String] {
        let prefix = key.name + "."
        return entries.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    /// Where each layer that sets `key` (for `scope`, when given) came from, lowest layer
    /// first: the line to blame for a value that is wrong only beside others.
    public func sources(of key: SettingKey, scope: String? = nil) -> [SettingSource] {
        (entries[scope.map { key.name + "." + $0 } ?? key.name] ?? []).map(\.source)
    }

    /// The value of setting `name` for `scope` (`NAME.SCOPE`), or nil; parsed like `value`.
    func value<T>(_ name: String, scope: String, _ parse: (String, SettingSource) throws(CommandError) -> T) throws(CommandError) -> T? {
        try value(name + "." + scope, parse)
    }
}

/// The config file: `key = value` lines with known, unrepeated keys.
public enum ConfigFile {
    /// Reads `path`, rejecting repeated keys and keys `catalog` does not know.
    public static func read(_ path: String, catalog: SettingCatalog) throws(CommandError) -> [KeyValueFile.Entry] {
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
        if let unknown = entries.first(where: { !catalog.knows($0.key) }) {
            throw CommandError(.config, "\(path):\(unknown.line): unknown key \(Quoted(unknown.key)) (known: \(catalog.keys.map(\.name).joined(separator: ", ")))")
        }
        return entries
    }
}
