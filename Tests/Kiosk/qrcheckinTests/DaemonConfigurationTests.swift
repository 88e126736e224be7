@testable import qrcheckin
import Foundation
import SharedCLI
import SharedDomain
import Testing

/// Settings layered as `run` reads them: defaults, config files, variables, flags.
@Suite struct DaemonConfigurationTests {
    /// A service's environment (its directories from systemd, whoever runs the tests) and no config.
    private let home = ["RUNTIME_DIRECTORY": "/run/k", "STATE_DIRECTORY": "/var/lib/k", "QRCHECKIN_CONFIG": ""]

    private func parse(_ words: [String]) throws -> ParsedArguments {
        try ParsedArguments(words, spec: RunCommand.spec)
    }

    @Test func withNothingSetTheDefaultsApply() throws {
        let configuration = try DaemonConfiguration(flags: parse([]), environment: home)
        #expect(configuration.venue == .demo)
        #expect(configuration.period == .standard)
        #expect(configuration.baseURL == CheckInCodeIssuer.defaultBaseURL)
        #expect(configuration.scale == 8 && configuration.margin == 4 && configuration.level == .medium)
        #expect(configuration.outputDirectory == "/run/k")
        #expect(configuration.socketPath == "/run/k/control.sock")
        #expect(configuration.stateDirectory == "/var/lib/k")
        #expect(configuration.secretFile == nil && configuration.metricsDirectory == nil && configuration.opsGroup == nil)
        #expect(!configuration.requireClockSync)
        #expect(!configuration.locations.isChosen)
    }

    @Test func aFlagBeatsTheVariableWhichBeatsTheFile() throws {
        let file = temporaryFile("period = 30\nscale = 4\nrequire-clock-sync = yes\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        var environment = home
        environment["QRCHECKIN_CONFIG"] = file
        environment["QRCHECKIN_PERIOD"] = "1m"
        let fromFileAndVariable = try DaemonConfiguration(flags: parse([]), environment: environment)
        #expect(fromFileAndVariable.period.seconds == 60)
        #expect(fromFileAndVariable.scale == 4)
        #expect(fromFileAndVariable.requireClockSync)
        #expect(fromFileAndVariable.configPaths == [file])
        let withFlag = try DaemonConfiguration(flags: parse(["--period", "20s", "--output-dir", "/srv/k"]), environment: environment)
        #expect(withFlag.period.seconds == 20)
        #expect(withFlag.socketPath == "/srv/k/control.sock")
        #expect(withFlag.locations.isChosen)
    }

    @Test func aBadValueNamesItsSourceAndEarnsItsExitStatus() throws {
        expectFailure(.usage, "--scale: must be a whole number from 1 to 64, got '0'") {
            try DaemonConfiguration(flags: parse(["--scale", "0"]), environment: home)
        }
        var environment = home
        environment["QRCHECKIN_LEVEL"] = "X"
        expectFailure(.config, "$QRCHECKIN_LEVEL: must be L, M, Q or H, got 'X'") {
            try DaemonConfiguration(flags: parse([]), environment: environment)
        }
        // A bad line stays an error while a flag overrides it.
        let file = temporaryFile("require-clock-sync = maybe\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        environment = home
        environment["QRCHECKIN_CONFIG"] = file
        expectFailure(.config, "\(file):1: require-clock-sync: must be yes or no, got 'maybe'") {
            try DaemonConfiguration(flags: parse(["--require-clock-sync", "no"]), environment: environment)
        }
    }

    /// Each setting is one declaration: its flag, variable and config key come from it.
    @Test func everySettingIsAFlagOfRunAVariableAndAConfigKey() throws {
        let names = DaemonSetting.all.map(\.name)
        #expect(Set(names).count == names.count, "no setting declared twice")
        #expect(names == SettingCatalog.qrcheckin.keys.map(\.name))
        for key in DaemonSetting.all {
            #expect(RunCommand.spec.options.contains { $0.long == key.name }, "run --\(key.name)")
            #expect(key.environmentName == "QRCHECKIN_" + key.name.uppercased().map { $0 == "-" || $0 == "." ? "_" : String($0) }.joined())
            // A name a shell and systemd's Environment= take: letters, digits and _ only.
            #expect(key.environmentName.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }, "\(key.environmentName)")
            #expect(SettingCatalog.qrcheckin.knows(key.name))
        }
    }
}

/// A file holding `text`, removed by the caller.
func temporaryFile(_ text: String) -> String {
    let path = NSTemporaryDirectory() + "qrcheckin-tests-\(UUID().uuidString)"
    FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
}

/// Expects `body` to fail with exactly this exit status and message.
func expectFailure<T>(_ code: ExitCode, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
                      _ body: () throws -> T) {
    do {
        _ = try body()
        Issue.record("no error; expected \(message)", sourceLocation: sourceLocation)
    } catch let error as CommandError {
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(error.message == message, sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}
