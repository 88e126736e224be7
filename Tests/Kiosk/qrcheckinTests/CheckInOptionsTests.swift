@testable import qrcheckin
import Foundation
import SharedCLI
import SharedDomain
import SharedSystem
import Testing

/// `code` and `verify` read the same settings as `run`, through the same declarations.
@Suite struct CheckInOptionsTests {
    private let home = ["RUNTIME_DIRECTORY": "/run/k", "STATE_DIRECTORY": "/var/lib/k", "QRCHECKIN_CONFIG": ""]
    /// A service directory with nothing installed.
    private let noService = InstalledService(directory: "/nonexistent/qrcheckin-tests")

    private func options(_ words: [String], command: any Command.Type = CodeCommand.self, environment: [String: String]? = nil,
                         usesBaseURL: Bool = true) throws -> CheckInOptions {
        try CheckInOptions(ParsedArguments(words, spec: command.spec), environment: environment ?? home,
                           usesBaseURL: usesBaseURL, service: noService)
    }

    @Test func theVenueIsOnlyWhatALayerSaysAndRemembersWhichLayer() throws {
        #expect(try options([]).venue == nil, "no default venue: a venue key's own venue may serve")
        var environment = home
        environment["QRCHECKIN_VENUE"] = "HALL-1"
        let fromVariable = try options([], environment: environment)
        #expect(fromVariable.venue?.rawValue == "HALL-1")
        #expect(fromVariable.venueSource == .environment("QRCHECKIN_VENUE"))
        let fromFlag = try options(["--venue", "GATE-2"], environment: environment)
        #expect(fromFlag.venueSource == .flag("venue"))
    }

    @Test func theSecretIsLookedForInTheConfiguredStateDirectory() throws {
        #expect(try options([]).secretLocations.secretFile == "/var/lib/k/secret")
        var environment = home
        environment["QRCHECKIN_STATE_DIR"] = "/srv/state"
        #expect(try options([], environment: environment).secretLocations.secretFile == "/srv/state/secret")
    }

    @Test func verifyIgnoresABadBaseURLWhichCodeRefuses() throws {
        var environment = home
        environment["QRCHECKIN_BASE_URL"] = "ftp://x"
        #expect(try options([], command: VerifyCommand.self, environment: environment, usesBaseURL: false).baseURL
                == CheckInCodeIssuer.defaultBaseURL)
        #expect(throws: CommandError.self) { try options([], environment: environment) }
    }

    @Test func aSettingCodeNeverUsesCannotStopIt() throws {
        var environment = home
        environment["QRCHECKIN_SCALE"] = "999"
        let file = temporaryFile("output-dir =\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        environment["QRCHECKIN_CONFIG"] = file
        #expect(try options([], environment: environment).period == .standard)
    }

    @Test func repeatedSecretFlagsAreTriedInOrder() throws {
        let parsed = try options(["--secret-file", "/a", "--secret-file", "/b"], command: VerifyCommand.self, usesBaseURL: false)
        #expect(parsed.secretFiles == ["/a", "/b"])
        expectFailure(.usage, "--secret-file: must be a path") {
            try options(["--secret-file", ""], command: VerifyCommand.self, usesBaseURL: false)
        }
    }

    @Test func atTakesUnixSecondsAndISO8601WithAZone() throws {
        #expect(try options(["--at", "1700000000"]).unixTime == 1_700_000_000)
        #expect(try options(["--at", "@1700000000"]).hasExplicitTime)
        #expect(try options(["--at", "2023-11-14T22:13:20Z"]).unixTime == 1_700_000_000)
        #expect(try options(["--at", "2023-11-15T07:13:20+09:00"]).unixTime == 1_700_000_000)
        #expect(try !options([]).hasExplicitTime)
        #expect(throws: CommandError.self) { try options(["--at", "2023-11-14T22:13:20"]) }
    }
}

/// Each command's options as `--help` lists them parse as documented.
@Suite struct CommandArgumentTests {
    @Test func everyCommandIsFoundByItsName() {
        for command in CommandRegistry.commands {
            #expect(CommandRegistry.command(named: command.spec.name) == command)
        }
        #expect(CommandRegistry.command(named: "nope") == nil)
    }

    @Test func clientsTakeTheLocationFlagsAndShowNoSocket() throws {
        let parsed = try ParsedArguments(["--venue", "HALL-1", "-c", "/a.conf", "-c", "/b.conf"], spec: StatusCommand.spec)
        #expect(parsed["venue"] == "HALL-1")
        #expect(parsed.all("config") == ["/a.conf", "/b.conf"])
        #expect(throws: CommandError.self) { try ParsedArguments(["--socket", "/s"], spec: ShowCommand.spec) }
        #expect(throws: CommandError.self) { try ParsedArguments(["--period", "1", "--period", "2"], spec: RunCommand.spec) }
    }

    @Test func runTakesEverySettingAsAFlag() throws {
        let parsed = try ParsedArguments(["--metrics-dir=/m", "--require-clock-sync", "yes", "--ops-group", "adm"], spec: RunCommand.spec)
        #expect(parsed["metrics-dir"] == "/m")
        #expect(parsed["require-clock-sync"] == "yes")
        #expect(parsed["ops-group"] == "adm")
    }
}
