import SharedSystem

/// The config files to read, in order, each later one overriding the earlier ones: the
/// repeatable `--config FILE` flags, else the program's variable (`$QRCHECKIN_CONFIG`, a
/// `:`-separated list, like `PATH`). A path written with a leading `-` is optional, as in systemd's `EnvironmentFile=-`:
/// a missing file is skipped, anything else wrong with it (unreadable, not a regular file, a
/// bad line) is still an error. The template unit uses this to layer a venue's own file over
/// the shared one: `QRCHECKIN_CONFIG=/etc/qrcheckin/qrcheckin.conf:-/etc/qrcheckin/%i.conf`.
public struct ConfigFileList: Sendable, Equatable {
    /// One file of the list.
    public struct File: Sendable, Equatable {
        /// The path without the optional marker.
        public let path: String
        /// Whether a missing file is fine (written `-PATH`).
        public let optional: Bool
    }

    /// The files, in the order they are layered.
    public let files: [File]

    /// The list from the flags when any were given, else from the environment's `variable`
    /// (set but empty: no file), else `installed`, each optional: the installed service's files,
    /// which `code` and `verify` read when the service is there for them (`InstalledService`).
    public init(flags: [String], environment: [String: String], variable: String, installed: [String] = []) {
        let texts = if !flags.isEmpty {
            flags
        } else if let value = environment[variable] {
            value.split(separator: ":").map(String.init)
        } else {
            installed.map { "-" + $0 }
        }
        files = texts.compactMap { text in
            let optional = text.hasPrefix("-") && text.count > 1
            let path = optional ? String(text.dropFirst()) : text
            return path.isEmpty ? nil : File(path: path, optional: optional)
        }
    }

    /// Every file that exists (all the required ones) with its entries, in layering order.
    /// A missing required file, or any problem with a present one, is exit 78 naming the file.
    public func read(catalog: SettingCatalog) throws(CommandError) -> [(path: String, entries: [KeyValueFile.Entry])] {
        var read: [(path: String, entries: [KeyValueFile.Entry])] = []
        for file in files {
            if file.optional, !DefaultLocations.pathExists(file.path) { continue }
            read.append((file.path, try ConfigFile.read(file.path, catalog: catalog)))
        }
        return read
    }

    /// The paths as one would write them again, for messages.
    public var description: String {
        files.map { ($0.optional ? "-" : "") + $0.path }.joined(separator: ":")
    }
}
