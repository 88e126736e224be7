@testable import qrcheckin
import SharedCLI
import Testing

/// qrcheckin's synopses, made from each command's own options (a spec naming an option it does
/// not take, or positionals it does not count, cannot be made: every spec is built here).
@Suite struct CommandSynopsisTests {
    private func usageLine(_ name: String) -> String? {
        Program.tool.command(named: name)?.spec.usageLine
    }

    @Test func everyCommandsSynopsisCanBeMade() {
        for type in Program.tool.commands {
            #expect(type.spec.usageLine.hasPrefix("usage: qrcheckin \(type.spec.name) "))
        }
    }

    @Test func operandsAreSpelledFromTheOptionsTheyName() {
        #expect(usageLine("verify")?.hasSuffix(" (URL | TOKEN | --safe-number NUMBER | --stdin)") == true)
        #expect(usageLine("verify")?.contains("[--stdin]") == false, "an option the operands name is not listed again")
        #expect(usageLine("keygen") == "usage: qrcheckin keygen [-o FILE] [--force] [--report] [--venue VENUE --from FILE]")
        #expect(usageLine("encode")?.hasSuffix(" [TEXT]") == true)
        #expect(usageLine("ctl")?.hasSuffix(" get | shake on|off|toggle | refresh auto|pause|now") == true)
    }
}
