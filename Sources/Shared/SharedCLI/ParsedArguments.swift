import SharedDomain

/// A command line split into option values, flags and positional arguments.
public struct ParsedArguments: Sendable, Equatable {
    /// Values of options that take one, by long name, in the order given (one unless the
    /// option is repeatable).
    public var lists: [String: [String]] = [:]
    /// Flags that were given, by long name.
    public var flags: Set<String> = []
    /// Arguments that are not options, in order.
    public var positionals: [String] = []

    /// Parses `arguments` (without the program and command words) against `spec`.
    ///
    /// Accepts `--name value`, `--name=value`, `-n value`, `-nvalue`, grouped short flags, and
    /// `--` to end options. A lone `-` is positional (standard input, by convention).
    public init(_ arguments: [String], spec: CommandSpec) throws(CommandError) {
        var index = 0
        func nextValue(for option: OptionSpec, spelled: String) throws(CommandError) -> String {
            index += 1
            guard index < arguments.count else {
                throw .usage("option \(spelled) needs a value (\(option.value ?? "VALUE"))")
            }
            return arguments[index]
        }
        var lists: [String: [String]] = [:]
        func record(_ value: String, for option: OptionSpec) throws(CommandError) {
            if !option.repeatable, lists[option.long] != nil {
                throw .usage("option --\(option.long) is given more than once")
            }
            lists[option.long, default: []].append(value)
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                positionals += arguments[(index + 1)...]
                break
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                guard let option = spec.options.first(where: { $0.long == name }) else {
                    throw .usage("unknown option \(Quoted("--" + name)) for '\(spec.name)' (see \(spec.program) \(spec.name) --help)")
                }
                if let equals = body.firstIndex(of: "=") {
                    guard option.value != nil else { throw .usage("option \(Quoted("--" + name)) takes no value") }
                    try record(String(body[body.index(after: equals)...]), for: option)
                } else if option.value != nil {
                    try record(try nextValue(for: option, spelled: argument), for: option)
                } else {
                    flags.insert(name)
                }
            } else if argument.hasPrefix("-") && argument.count > 1 {
                var letters = argument.dropFirst()
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let option = spec.options.first(where: { $0.short == letter }) else {
                        throw .usage("unknown option \(Quoted("-" + String(letter))) for '\(spec.name)' (see \(spec.program) \(spec.name) --help)")
                    }
                    guard option.value != nil else {
                        flags.insert(option.long)
                        continue
                    }
                    try record(letters.isEmpty ? try nextValue(for: option, spelled: "-\(letter)") : String(letters), for: option)
                    break
                }
            } else {
                positionals.append(argument)
            }
            index += 1
        }
        self.lists = lists
        guard flags.contains("help") || spec.positionals.contains(positionals.count) else {
            let allowed = spec.positionals
            let expected = allowed.lowerBound == allowed.upperBound ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)"
            throw .usage("'\(spec.name)' takes \(expected) argument\(allowed.upperBound == 1 ? "" : "s"), got \(positionals.count)")
        }
    }

    /// Whether the flag `--name` was given.
    public func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`, if given (the last, for a repeatable option).
    public subscript(_ name: String) -> String? { lists[name]?.last }

    /// Every value of the repeatable option `--name`, in the order given.
    public func all(_ name: String) -> [String] { lists[name] ?? [] }

    /// The value of `--name` as an integer within `range`, if given.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandError) -> Int? {
        guard let text = self[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(Quoted(text))")
        }
        return number
    }

    /// The value of `--name` as one of `choices`' raw values, if given.
    public func choice<T: RawRepresentable & CaseIterable>(_ name: String, as type: T.Type) throws(CommandError) -> T?
    where T.RawValue == String {
        guard let text = self[name] else { return nil }
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("--\(name) must be one of \(names), got \(Quoted(text))")
        }
        return value
    }
}
