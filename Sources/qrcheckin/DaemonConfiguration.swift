import CheckInData
import CheckInDomain
import Glibc

/// The daemon's settings, merged from built-in defaults, a config file, the environment and
/// flags — each later layer overriding the earlier ones — and validated as a whole.
struct DaemonConfiguration: Sendable {
    var venue: VenueID
    var baseURL: String
    var period: RotationPeriod
    var outputDirectory: String
    var stateDirectory: String
    /// An explicit secret file; nil means the documented lookup (credentials, then state dir).
    var secretFile: String?
    var socketPath: String
    var opsGroup: gid_t?
    var scale: Int
    var margin: Int
    var level: ErrorCorrectionLevel
    /// The config files read, in layering order (SIGHUP reads them again).
    var configPaths: [String]
    /// The flags it was made from, to merge again on reload.
    let flags: ParsedArguments

    /// The options `run` accepts: `--config` and one per setting.
    static let options: [OptionSpec] =
        [OptionSpec("config", short: "c", value: "FILE", repeatable: true,
                    help: "Read settings from FILE (key = value; repeat to layer; -FILE: optional).")]
        + SettingKey.all.map(\.option)

    /// A setting's raw text and where it came from.
    typealias RawSettings = [String: (value: String, source: SettingSource)]

    /// Merges and validates the layers. Errors name the source (flag, variable, or file:line).
    init(flags: ParsedArguments, environment: [String: String]) throws(CommandError) {
        // Several files layer in order (a venue's own file over the shared one); each is
        // also validated alone below, so a bad line is reported even where a later file hides it.
        let configFiles = try ConfigFileList(flags: flags.all("config"), environment: environment).read()
        let configPaths = configFiles.map(\.path)
        var fileLayer: RawSettings = [:], fileLayers: [RawSettings] = []
        for (path, entries) in configFiles {
            var layer: RawSettings = [:]
            for entry in entries { layer[entry.key] = (entry.value, .file(path: path, line: entry.line, key: entry.key)) }
            fileLayers.append(layer)
            fileLayer.merge(layer) { _, later in later }
        }
        var environmentLayer = fileLayer, flagLayer: RawSettings
        for key in SettingKey.all {
            if let value = environment[key.environmentName], !value.isEmpty {
                environmentLayer[key.name] = (value, .environment(key.environmentName))
            }
        }
        flagLayer = environmentLayer
        for key in SettingKey.all {
            if let value = flags[key.name] { flagLayer[key.name] = (value, .flag(key.name)) }
        }
        // Each layer is validated on its own too: a bad line in the file is an error even
        // while a flag happens to override it, so it cannot surprise anyone later.
        for layer in fileLayers + [fileLayer, environmentLayer] {
            _ = try DaemonConfiguration(raw: layer, flags: flags, environment: environment, configPaths: configPaths)
        }
        self = try DaemonConfiguration(raw: flagLayer, flags: flags, environment: environment, configPaths: configPaths)
    }

    private init(raw: RawSettings, flags: ParsedArguments, environment: [String: String], configPaths: [String]) throws(CommandError) {
        self.flags = flags
        self.configPaths = configPaths
        func setting<T>(_ name: String, default fallback: T, _ parse: (String) throws(CheckInCodeError) -> T) throws(CommandError) -> T {
            guard let (value, source) = raw[name] else { return fallback }
            do {
                return try parse(value)
            } catch {
                throw source.error(error.description)
            }
        }
        func number(_ name: String, _ range: ClosedRange<Int>, default fallback: Int) throws(CommandError) -> Int {
            guard let (value, source) = raw[name] else { return fallback }
            guard let number = Int(value), range.contains(number) else {
                throw source.error("must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(value)'")
            }
            return number
        }

        let defaults = DefaultLocations(environment: environment)
        venue = try setting("venue", default: try! VenueID("DEMO")) { text throws(CheckInCodeError) in try VenueID(text) }
        baseURL = try setting("base-url", default: CheckInCodeIssuer.defaultBaseURL) { text throws(CheckInCodeError) in
            try CheckInCodeIssuer.validateBaseURL(text)
            return text
        }
        let seconds = try number("period", RotationPeriod.allowedSeconds, default: RotationPeriod.standard.seconds)
        period = try! RotationPeriod(seconds: seconds)
        outputDirectory = try Self.path(raw["output-dir"]) ?? defaults.outputDirectory
        stateDirectory = try Self.path(raw["state-dir"]) ?? defaults.stateDirectory
        secretFile = try Self.path(raw["secret-file"])
        socketPath = try Self.path(raw["socket"]) ?? outputDirectory + "/control.sock"
        if let (name, source) = raw["ops-group"] {
            guard let id = GroupDatabase.id(of: name) else { throw source.error("no such group '\(name)'") }
            opsGroup = id
        } else {
            opsGroup = nil
        }
        scale = try number("scale", 1...64, default: 8)
        margin = try number("margin", 1...64, default: 4)
        if let (value, source) = raw["level"] {
            guard let level = ErrorCorrectionLevel(letter: value) else { throw source.error("must be L, M, Q or H, got '\(value)'") }
            self.level = level
        } else {
            level = .medium
        }
    }

    /// A path setting: non-empty; relative paths are taken from the working directory.
    private static func path(_ entry: (value: String, source: SettingSource)?) throws(CommandError) -> String? {
        guard let (value, source) = entry else { return nil }
        guard !value.isEmpty, !value.contains("\0") else { throw source.error("must be a path") }
        return value
    }

    /// Reads `path` as `key = value` lines, rejecting unknown keys.
    static func readConfig(_ path: String) throws(CommandError) -> [KeyValueFile.Entry] {
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
            throw CommandError(.config, "\(path):\(unknown.line): unknown key '\(unknown.key)' (known: \(SettingKey.all.map(\.name).joined(separator: ", ")))")
        }
        return entries
    }
}
