/// A command line split into option values, flags and positional arguments.
struct ParsedArguments: Sendable, Equatable {
    /// Values of options that take one, by long name (the last occurrence wins).
    var values: [String: String] = [:]
    /// Flags that were given, by long name.
    var flags: Set<String> = []
    /// Arguments that are not options, in order.
    var positionals: [String] = []

    /// Parses `arguments` (without the program and command words) against `spec`.
    ///
    /// Accepts `--name value`, `--name=value`, `-n value`, `-nvalue`, grouped short flags, and
    /// `--` to end options. A lone `-` is positional (standard input, by convention).
    init(_ arguments: [String], spec: CommandSpec) throws(CommandError) {
        var index = 0
        func nextValue(for option: OptionSpec, spelled: String) throws(CommandError) -> String {
            index += 1
            guard index < arguments.count else {
                throw .usage("option \(spelled) needs a value (\(option.value ?? "VALUE"))")
            }
            return arguments[index]
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
                    throw .usage("unknown option --\(name) for '\(spec.name)' (see qrcheckin \(spec.name) --help)")
                }
                if let equals = body.firstIndex(of: "=") {
                    guard option.value != nil else { throw .usage("option --\(name) takes no value") }
                    values[name] = String(body[body.index(after: equals)...])
                } else if option.value != nil {
                    values[name] = try nextValue(for: option, spelled: argument)
                } else {
                    flags.insert(name)
                }
            } else if argument.hasPrefix("-") && argument.count > 1 {
                var letters = argument.dropFirst()
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let option = spec.options.first(where: { $0.short == letter }) else {
                        throw .usage("unknown option -\(letter) for '\(spec.name)' (see qrcheckin \(spec.name) --help)")
                    }
                    guard option.value != nil else {
                        flags.insert(option.long)
                        continue
                    }
                    values[option.long] = letters.isEmpty ? try nextValue(for: option, spelled: "-\(letter)") : String(letters)
                    break
                }
            } else {
                positionals.append(argument)
            }
            index += 1
        }
        guard flags.contains("help") || spec.positionals.contains(positionals.count) else {
            let allowed = spec.positionals
            let expected = allowed.lowerBound == allowed.upperBound ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)"
            throw .usage("'\(spec.name)' takes \(expected) argument\(allowed.upperBound == 1 ? "" : "s"), got \(positionals.count)")
        }
    }

    /// Whether the flag `--name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`, if given.
    subscript(_ name: String) -> String? { values[name] }

    /// The value of `--name` as an integer within `range`, if given.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// The value of `--name` as one of `choices`' raw values, if given.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, as type: T.Type) throws(CommandError) -> T?
    where T.RawValue == String {
        guard let text = values[name] else { return nil }
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("--\(name) must be one of \(names), got '\(text)'")
        }
        return value
    }
}
