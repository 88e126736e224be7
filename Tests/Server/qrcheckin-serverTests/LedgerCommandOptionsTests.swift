@testable import qrcheckin_server
import Foundation
import ServerDomain
import ServerSQLite
import SharedAsync
import SharedCLI
import Testing

/// The setup every command on the visitor log shares: its options, the layers, the database and
/// the ledger it opens.
@Suite struct LedgerCommandOptionsTests {
    /// No config file, no database setting; the default database under `/srv/state`.
    private let home = ["STATE_DIRECTORY": "/srv/state", "QRCHECKIN_SERVER_CONFIG": ""]

    private func options(_ words: [String], environment: [String: String]? = nil, tuned: Bool = false,
                         command: any AsyncCommand.Type = CheckinsCommand.self) throws(CommandError) -> LedgerCommandOptions {
        try LedgerCommandOptions(ParsedArguments(words, spec: command.spec), environment: environment ?? home, tuned: tuned)
    }

    /// A directory of its own under the system's temporary one, removed by `body`'s end.
    private func withDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-options-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    @Test func theOptionsAreConfigThenDatabase() {
        let specs = LedgerCommandOptions.options()
        #expect(specs.map(\.long) == ["config", "database"])
        #expect(specs[0].short == "c" && specs[0].repeatable && specs[0].value == "FILE")
        #expect(specs[1].value == "URL" && !specs[1].repeatable)
        #expect(specs[1].help == "sqlite:PATH or postgresql://… (default: as 'serve').")
        #expect(LedgerCommandOptions.options(database: "Where to copy.")[1].help == "Where to copy.")
    }

    @Test func everyLedgerCommandDeclaresTheSharedOptionsFirst() {
        for type in ServerProgram.tool.commands {
            let names = type.spec.options.map(\.long)
            if type.spec.name == "serve" {
                // serve takes every setting as a flag, database among them.
                #expect(names.first == "config" && names.contains("database"))
            } else {
                #expect(Array(names.prefix(2)) == ["config", "database"], "\(type.spec.name)")
            }
        }
    }

    @Test func everySynopsisIsMadeFromTheCommandsOwnOptions() {
        let lines = Dictionary(uniqueKeysWithValues: ServerProgram.tool.commands.map { ($0.spec.name, $0.spec.usageLine) })
        #expect(lines["checkin"]?.hasSuffix(" --venue VENUE") == true)
        #expect(lines["erase"]?.hasSuffix(" (--checkin ID | --device ID | --phone NUMBER)") == true)
        #expect(lines["import"] == "usage: qrcheckin-server import [-c FILE] [--database URL] [--venue VENUE] --from sqlite:PATH")
        #expect(lines["migrate"] == "usage: qrcheckin-server migrate [-c FILE] [--database URL]")
    }

    @Test func theDatabaseIsTheHighestLayersOrTheStandardPlace() throws {
        let standard = try options([])
        #expect(standard.database.description == "sqlite:/srv/state/checkins.db")
        guard case .sqlite(_, isDefault: true) = standard.database else {
            Issue.record("the standard place is the default, whose directory is made")
            return
        }
        var environment = home
        environment["QRCHECKIN_SERVER_DATABASE"] = "sqlite:/env.db"
        #expect(try options([], environment: environment).database.description == "sqlite:/env.db")
        #expect(try options(["--database", "sqlite:/flag.db"], environment: environment).database.description == "sqlite:/flag.db")
        try withDirectory { directory in
            let file = directory + "/server.conf"
            try "database = sqlite:/file.db\n".write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try options(["-c", file]).database.description == "sqlite:/file.db")
            #expect(try options(["-c", file], environment: environment).database.description == "sqlite:/env.db")
            #expect(try options(["-c", file]).layers.configPaths == [file])
        }
    }

    @Test func aBadDatabaseNamesWhereItCameFrom() {
        let flag = #expect(throws: CommandError.self) { try options(["--database", "mysql://x"]) }
        #expect(flag?.code == .usage)
        #expect(flag?.message == "--database: must be sqlite:PATH, postgresql://… or postgresql:KEY=VALUE …")
        var environment = home
        environment["QRCHECKIN_SERVER_DATABASE"] = "sqlite:"
        let variable = #expect(throws: CommandError.self) { try options([], environment: environment) }
        #expect(variable?.code == .config)
        #expect(variable?.message.hasPrefix("$QRCHECKIN_SERVER_DATABASE: must be sqlite:PATH with a file path") == true)
    }

    @Test func onlyTunedCommandsReadDurabilityAndPool() throws {
        var environment = home
        environment["QRCHECKIN_SERVER_DURABILITY"] = "fast"
        environment["QRCHECKIN_SERVER_DATABASE_POOL"] = "0"
        let untuned = try options([], environment: environment)
        #expect(untuned.durability == .full, "a setting the command never reads cannot stop it")
        #expect(untuned.poolSize == 16)
        let error = #expect(throws: CommandError.self) { try options([], environment: environment, tuned: true) }
        #expect(error?.code == .config)
        #expect(error?.message == "$QRCHECKIN_SERVER_DURABILITY: must be full or normal, got 'fast'")
        environment["QRCHECKIN_SERVER_DURABILITY"] = "normal"
        environment["QRCHECKIN_SERVER_DATABASE_POOL"] = "3"
        let tuned = try options([], environment: environment, tuned: true, command: ServeCommand.self)
        #expect(tuned.durability == .normal)
        #expect(tuned.poolSize == 3)
    }

    @Test func theLedgerIsOpenedOnlyWhereItExistsUnlessCreated() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-options-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ledgerOptions = try options(["--database", "sqlite:\(directory)/checkins.db"])
        let missing = await #expect(throws: CommandError.self) { try await ledgerOptions.openLedger() }
        #expect(missing?.code == .noInput)
        #expect(missing?.message.hasSuffix("(no check-ins recorded yet, or set --database)") == true)
        #expect(!FileManager.default.fileExists(atPath: directory + "/checkins.db"), "reading never creates it")
        let created = try await ledgerOptions.openLedger(create: true).ledger
        #expect(try await created.count(CheckInQuery()) == 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/checkins.db"))
        #expect(try await ledgerOptions.openLedger().ledger.count(CheckInQuery()) == 0)
    }
}
