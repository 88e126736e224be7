import SharedCLI
import Testing

/// The parser every command of both programs goes through: each way of spelling an option, and
/// each mistake, which must be a usage error (exit 64) naming what was wrong.
struct ParsedArgumentsTests {
    /// A command of a program called `tool`, with an option of every kind.
    static let spec = CommandSpec(
        program: "tool", name: "copy", summary: "Copy things.", operands: [.words("[SOURCE [TARGET]]")],
        options: [
            OptionSpec("output", short: "o", value: "FILE", help: "Where."),
            OptionSpec("format", short: "f", value: "FORMAT", help: "How."),
            OptionSpec("tag", value: "TAG", repeatable: true, help: "A label; repeat for more."),
            OptionSpec("level", value: "N", help: "How hard."),
            OptionSpec("verbose", short: "v", help: "Say more."),
            OptionSpec("dry-run", short: "n", help: "Change nothing."),
        ],
        positionals: 0...2)

    /// `spec` with no positionals and one with exactly one.
    static let none = CommandSpec(program: "tool", name: "list", summary: "List things.")
    static let one = CommandSpec(program: "tool", name: "show", summary: "Show a thing.", operands: [.words("THING")], positionals: 1...1)

    enum Format: String, CaseIterable {
        case csv, json
    }

    private func parse(_ words: [String], _ spec: CommandSpec = spec) throws(CommandError) -> ParsedArguments {
        try ParsedArguments(words, spec: spec)
    }

    /// The usage error parsing `words` throws, checked to be exit 64 with `message`.
    private func expectUsage(_ words: [String], in spec: CommandSpec = spec, _ message: String,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: CommandError.self, sourceLocation: sourceLocation) { try parse(words, spec) }
        #expect(error?.code == .usage, sourceLocation: sourceLocation)
        #expect(error?.code.rawValue == 64, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    @Test func everySpellingOfAValueGivesTheSameValue() throws {
        for words in [["--output", "a.png"], ["--output=a.png"], ["-o", "a.png"], ["-oa.png"]] {
            let parsed = try parse(words)
            #expect(parsed["output"] == "a.png", "\(words)")
            #expect(parsed.positionals.isEmpty && parsed.flags.isEmpty, "\(words)")
        }
    }

    @Test func aValueIsTakenAsItIs() throws {
        #expect(try parse(["--output="])["output"] == "", "an empty value is a value")
        #expect(try parse(["--output=a=b"])["output"] == "a=b", "only the first = separates")
        #expect(try parse(["--output", "-v"])["output"] == "-v", "the next word is the value, whatever it looks like")
        #expect(try parse(["--output", "-v"]).has("verbose") == false)
    }

    @Test func flagsAloneAndGrouped() throws {
        let parsed = try parse(["-vn"])
        #expect(parsed.flags == ["verbose", "dry-run"])
        #expect(try parse(["--verbose"]).has("verbose"))
        #expect(!(try parse([]).has("verbose")))
        // A group may end in an option that takes a value: the rest of the word, else the next.
        let grouped = try parse(["-vofile"])
        #expect(grouped.has("verbose") && grouped["output"] == "file")
        let next = try parse(["-vo", "file"])
        #expect(next.has("verbose") && next["output"] == "file")
    }

    @Test func aRepeatableOptionKeepsEveryValueInOrder() throws {
        let parsed = try parse(["--tag", "a", "--tag=b", "--tag", "c"])
        #expect(parsed.all("tag") == ["a", "b", "c"])
        #expect(parsed["tag"] == "c", "the subscript is the last")
        #expect(try parse([]).all("tag") == [])
    }

    @Test func aSingleValueOptionGivenTwiceIsAUsageError() {
        expectUsage(["--output", "a", "-o", "b"], "option --output is given more than once")
        expectUsage(["-fcsv", "--format=json"], "option --format is given more than once")
    }

    @Test func aMissingValueIsAUsageErrorNamingThePlaceholder() {
        expectUsage(["--output"], "option --output needs a value (FILE)")
        expectUsage(["-v", "-o"], "option -o needs a value (FILE)")
        expectUsage(["--level"], "option --level needs a value (N)")
    }

    @Test func anUnknownOptionIsExit64WithAMessageThatSaysWhereToLook() {
        expectUsage(["--nope"], "unknown option '--nope' for 'copy' (see tool copy --help)")
        expectUsage(["--nope=3"], "unknown option '--nope' for 'copy' (see tool copy --help)")
        expectUsage(["-x"], "unknown option '-x' for 'copy' (see tool copy --help)")
        expectUsage(["-vx"], "unknown option '-x' for 'copy' (see tool copy --help)")
        expectUsage(["--outpu", "a"], "unknown option '--outpu' for 'copy' (see tool copy --help)")
    }

    @Test func aFlagTakesNoValue() {
        expectUsage(["--verbose=yes"], "option '--verbose' takes no value")
    }

    @Test func positionalsAreCountedAgainstTheSpec() throws {
        #expect(try parse(["a", "-v", "b"]).positionals == ["a", "b"], "options may come between them")
        expectUsage(["a", "b", "c"], "'copy' takes 0 to 2 arguments, got 3")
        expectUsage(["x"], in: Self.none, "'list' takes 0 arguments, got 1")
        expectUsage([], in: Self.one, "'show' takes 1 argument, got 0")
        expectUsage(["a", "b"], in: Self.one, "'show' takes 1 argument, got 2")
        #expect(try parse(["it"], Self.one).positionals == ["it"])
    }

    @Test func helpIsAnsweredWhateverTheCount() throws {
        #expect(try parse(["--help"], Self.one).has("help"))
        #expect(try parse(["-h", "a", "b", "c"]).has("help"))
    }

    @Test func doubleDashEndsTheOptions() throws {
        let parsed = try parse(["-v", "--", "--output", "-n"])
        #expect(parsed.positionals == ["--output", "-n"])
        #expect(parsed.flags == ["verbose"])
        #expect(parsed["output"] == nil)
        expectUsage(["--", "a", "b", "c"], "'copy' takes 0 to 2 arguments, got 3")
    }

    @Test func aLoneDashIsPositional() throws {
        #expect(try parse(["-", "-v"]).positionals == ["-"])
    }

    @Test func choicesAreTheCasesRawValues() throws {
        #expect(try parse(["-f", "json"]).choice("format", as: Format.self) == .json)
        #expect(try parse([]).choice("format", as: Format.self) == nil)
        let error = #expect(throws: CommandError.self) { try parse(["--format", "xml"]).choice("format", as: Format.self) }
        #expect(error?.code == .usage)
        #expect(error?.message == "--format must be one of csv, json, got 'xml'")
    }

    @Test func integersAreCheckedAgainstTheirRange() throws {
        #expect(try parse(["--level", "3"]).integer("level", in: 1...9) == 3)
        #expect(try parse([]).integer("level", in: 1...9) == nil)
        for text in ["0", "10", "three", ""] {
            let error = #expect(throws: CommandError.self) { try parse(["--level", text]).integer("level", in: 1...9) }
            #expect(error?.code == .usage)
            #expect(error?.message == "--level must be a whole number from 1 to 9, got '\(text)'")
        }
    }
}
