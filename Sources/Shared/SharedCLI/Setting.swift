import SharedDomain

/// One typed setting, declared once: its key (name in config files, flag, variable, help line),
/// how its text becomes a value (errors blaming the source) and its value when no layer sets
/// it. Commands read it from `SettingLayers` with `value(_:)`; a program's catalog lists the keys.
public struct Setting<Value: Sendable>: Sendable {
    /// The name, placeholder, help line and variable.
    public let key: SettingKey
    /// The value when no layer sets it (nil for an optional setting).
    public let defaultValue: Value
    /// The default as one writes it in a config file (`3h`, `127.0.0.1:8080`), which the help
    /// line can show; nil when the default is no value one could write (nil, or worked out at
    /// run time). `parse` takes it back to `defaultValue` (`SettingDeclaration`'s check).
    public let defaultText: String?
    /// Text to value; throws an error naming the source.
    public let parse: @Sendable (String, SettingSource) throws(CommandError) -> Value

    /// A setting of `key` parsed by `parse`, `defaultValue` (written `defaultText`) when unset.
    public init(_ key: SettingKey, default defaultValue: Value, written defaultText: String? = nil,
                parse: @escaping @Sendable (String, SettingSource) throws(CommandError) -> Value) {
        self.key = key
        self.defaultValue = defaultValue
        self.defaultText = defaultText
        self.parse = parse
    }

    /// The setting's name (`base-url`).
    public var name: String { key.name }
}

extension Setting {
    /// An optional setting (nil when unset) of values parsed by `parse`.
    public static func optional<Wrapped>(_ key: SettingKey,
                                         parse: @escaping @Sendable (String, SettingSource) throws(CommandError) -> Wrapped)
        -> Setting<Wrapped?> where Value == Wrapped? {
        Setting<Wrapped?>(key, default: nil) { text, source throws(CommandError) in try parse(text, source) }
    }
}

/// The parsers settings share.
public enum SettingParser {
    /// A path: non-empty, no NUL; relative paths are taken from the working directory.
    @Sendable public static func path(_ value: String, _ source: SettingSource) throws(CommandError) -> String {
        guard !value.isEmpty, !value.contains("\0") else { throw source.error("must be a path") }
        return value
    }

    /// A yes/no setting (also true/false, on/off, 1/0, as systemd spells booleans).
    @Sendable public static func yesNo(_ value: String, _ source: SettingSource) throws(CommandError) -> Bool {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw source.error("must be yes or no, got \(Quoted(value))")
        }
    }

    /// A whole number within `range`.
    public static func number(_ range: ClosedRange<Int>) -> @Sendable (String, SettingSource) throws(CommandError) -> Int {
        { value, source throws(CommandError) in
            guard let number = Int(value), range.contains(number) else {
                throw source.error("must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(Quoted(value))")
            }
            return number
        }
    }

    /// A venue id.
    @Sendable public static func venue(_ text: String, _ source: SettingSource) throws(CommandError) -> VenueID {
        do throws(CheckInCodeError) { return try VenueID(text) } catch { throw source.error(error.description) }
    }
}

/// A setting seen apart from its value's type: what a program's catalog, its documentation
/// and its tests read of every declaration.
public protocol SettingDeclaration: Sendable {
    /// The name, placeholder, help line and variable.
    var key: SettingKey { get }
    /// The default as written in a config file, when it is a value one could write.
    var defaultText: String? { get }
    /// Parses `text` as a config file's line (`key` of `file`, line `line`) is parsed: whether
    /// it is the default; throws the setting's error for a text it refuses. Documentation and
    /// examples are checked with it, and `defaultText` must give true.
    func isDefault(_ text: String, file: String, line: Int, key: String) throws(CommandError) -> Bool
}

extension Setting: SettingDeclaration where Value: Equatable {
    public func isDefault(_ text: String, file: String, line: Int, key: String) throws(CommandError) -> Bool {
        try parse(text, .file(path: file, line: line, key: key)) == defaultValue
    }
}

extension SettingLayers {
    /// The value of `setting` from the highest layer that sets it, else its default; every
    /// layer's text is parsed (see `value(_:_:)`).
    public func value<Value>(_ setting: Setting<Value>) throws(CommandError) -> Value {
        try value(setting.name, setting.parse) ?? setting.defaultValue
    }

    /// The value of a scoped setting for `scope` (`NAME.SCOPE` in a config file), or nil when
    /// no file sets it there: what then applies (the setting's unscoped value, usually) is the
    /// caller's to say. Every file's line for it is parsed.
    public func value<Value>(_ setting: Setting<Value>, scope: String) throws(CommandError) -> Value? {
        precondition(setting.key.scoped, "\(setting.name) is not set per scope")
        return try value(setting.name, scope: scope, setting.parse)
    }

    /// Like `value(_:)`, with the source of the layer that set it (nil: the default).
    public func valueAndSource<Value>(_ setting: Setting<Value>) throws(CommandError) -> (value: Value, source: SettingSource?) {
        var found: (value: Value, source: SettingSource?) = (setting.defaultValue, nil)
        try _ = value(setting.name) { text, source throws(CommandError) in
            found = (try setting.parse(text, source), source)
        }
        return found
    }
}
