import SharedCLI
import Testing

/// The synopsis, the usage line and `--help`, all made from the option specs.
struct CommandSpecTests {
    static let list = CommandSpec(program: "tool", name: "list", summary: "List things.",
                                  options: [OptionSpec("format", short: "f", value: "FORMAT", help: "How.")],
                                  examples: ["tool list -f csv   # as CSV"])

    @Test func optionalOptionsAreBracketedByTheirShortNameWhenTheyHaveOne() {
        #expect(Self.list.optionSynopses == ["[-f FORMAT]"], "--help is never listed")
        #expect(Self.list.synopsis == "tool list [-f FORMAT]")
        #expect(Self.list.usageLine == "usage: tool list [-f FORMAT]")
        #expect(OptionSpec("json", help: "").synopsis == "--json")
        #expect(OptionSpec("output", short: "o", value: "FILE", help: "").synopsis == "-o FILE")
    }

    @Test func neededOptionsAreSpelledFromTheirSpecAndNotRepeatedAmongTheOptionalOnes() {
        let spec = CommandSpec(program: "tool", name: "erase", summary: "Erase.",
                               operands: [.option("venue"), .oneOf([.option("device"), .option("phone")])],
                               options: [
                                   OptionSpec("config", short: "c", value: "FILE", help: ""),
                                   OptionSpec("device", value: "ID", help: ""),
                                   OptionSpec("phone", short: "p", value: "NUMBER", help: ""),
                                   OptionSpec("venue", value: "VENUE", help: ""),
                                   OptionSpec("json", help: ""),
                               ])
        #expect(spec.optionSynopses == ["[-c FILE]", "[--json]"])
        #expect(spec.operandSynopses == ["--venue VENUE", "(--device ID | --phone NUMBER)"], "long names, even with a short one")
        #expect(spec.usageLine == "usage: tool erase [-c FILE] [--json] --venue VENUE (--device ID | --phone NUMBER)")
    }

    @Test func groupsAndWordsNestAsWritten() {
        let options = [OptionSpec("venue", value: "VENUE", help: ""), OptionSpec("from", value: "FILE", help: ""),
                       OptionSpec("stdin", help: "")]
        #expect(Operand.together([.option("venue"), .option("from")]).synopsis(options) == "[--venue VENUE --from FILE]")
        #expect(Operand.oneOf([.words("URL"), .words("TOKEN"), .option("stdin")]).synopsis(options) == "(URL | TOKEN | --stdin)")
        #expect(Operand.words("get | set on|off").synopsis(options) == "get | set on|off")
        let nested = Operand.oneOf([.words("URL"), .together([.option("venue"), .option("from")])])
        #expect(nested.optionNames == ["venue", "from"])
        #expect(nested.hasWords)
        #expect(!Operand.together([.option("venue")]).hasWords)
    }

    @Test func theSynopsisWrapsAt80ColumnsButKeepsTheOperandsOnOneLine() {
        let options = (1...9).map { OptionSpec("option-\($0)", value: "VALUE", help: "") }
        let spec = CommandSpec(program: "tool", name: "wrap", summary: "Wrap.",
                               operands: [.words("get | shake on|off|toggle | refresh auto|pause|now")], options: options,
                               positionals: 0...2)
        let lines = spec.synopsis.split(separator: "\n")
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { $0.count <= 80 || $0.hasSuffix("refresh auto|pause|now") })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: "tool wrap ".count)) })
        #expect(lines.last?.hasSuffix(" get | shake on|off|toggle | refresh auto|pause|now") == true)
        #expect(!spec.usageLine.contains("\n"), "the usage line after an error is one line")
    }

    @Test func helpListsTheOptionsAlignedThenTheDiscussionAndExamples() {
        let spec = CommandSpec(program: "tool", name: "copy", summary: "Copy things.",
                               options: [OptionSpec("output", short: "o", value: "FILE", help: "Where."),
                                         OptionSpec("dry-run", help: "Change nothing.")],
                               discussion: "EXIT STATUS: 0 copied.", examples: ["tool copy -o x   # to x"])
        #expect(spec.helpText == """
            USAGE: tool copy [-o FILE] [--dry-run]

            Copy things.

            OPTIONS:
              -o, --output FILE  Where.
                  --dry-run      Change nothing.
              -h, --help         Show this help and exit.

            EXIT STATUS: 0 copied.

            EXAMPLES:
              tool copy -o x   # to x

            """)
        #expect(Self.list.helpText.hasSuffix("EXAMPLES:\n  tool list -f csv   # as CSV\n"))
    }

    @Test func aSynopsisNamingNoOptionCannotBeMade() async {
        await #expect(processExitsWith: .failure) {
            _ = CommandSpec(program: "tool", name: "bad", summary: "", operands: [.option("venue")])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandSpec(program: "tool", name: "bad", summary: "", positionals: 0...1)
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandSpec(program: "tool", name: "bad", summary: "", operands: [.words("[TEXT]")])
        }
    }

    @Test func theProgramListsItsCommandsAndFindsThemByName() {
        let tool = CommandLineTool(name: "tool", version: "1.0", about: "A tool.", commands: [ListCommand.self, CopyCommand.self],
                                   examples: ["tool list   # everything"])
        #expect(tool.usageLine == "usage: tool list|copy [OPTIONS]")
        #expect(tool.command(named: "copy")?.spec.summary == "Copy things.")
        #expect(tool.command(named: "cop") == nil)
        #expect(tool.helpText.contains("COMMANDS:\n  list  List things.\n  copy  Copy things.\n"))
    }
}

/// Two commands for `CommandLineTool`; they are never run.
private struct ListCommand: Command {
    static let spec = CommandSpecTests.list
    init(_ arguments: ParsedArguments, context: CommandContext) {}
    func run(_ context: CommandContext) -> ExitCode { .success }
}

private struct CopyCommand: Command {
    static let spec = CommandSpec(program: "tool", name: "copy", summary: "Copy things.")
    init(_ arguments: ParsedArguments, context: CommandContext) {}
    func run(_ context: CommandContext) -> ExitCode { .success }
}
