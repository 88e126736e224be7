import SharedCLI
import Testing

/// The shared command-line framework, seen from a program other than qrcheckin.
struct ParsedArgumentsTests {
    /// A command of a program called `tool`.
    static let spec = CommandSpec(program: "tool", name: "list", summary: "List things.",
                                  options: [OptionSpec("format", short: "f", value: "FORMAT", help: "How.")],
                                  examples: ["tool list -f csv   # as CSV"])

    @Test func valuesAndFlags() throws {
        let parsed = try ParsedArguments(["-fcsv", "--help"], spec: Self.spec)
        #expect(parsed["format"] == "csv")
        #expect(parsed.has("help"))
    }

    @Test func messagesNameTheProgram() {
        #expect(throws: CommandError.self) { try ParsedArguments(["--nope"], spec: Self.spec) }
        do {
            _ = try ParsedArguments(["--nope"], spec: Self.spec)
        } catch {
            #expect(error.message == "unknown option '--nope' for 'list' (see tool list --help)")
            #expect(error.code == .usage)
        }
        #expect(Self.spec.usageLine == "usage: tool list [-f FORMAT]")
        #expect(Self.spec.helpText.hasSuffix("EXAMPLES:\n  tool list -f csv   # as CSV\n"))
    }
}
