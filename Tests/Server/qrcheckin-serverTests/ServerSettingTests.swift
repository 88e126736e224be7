@testable import qrcheckin_server
import Foundation
import ServerDomain
import ServerConsole
import ServerHTTP
import ServerReports
import SharedCLI
import SharedDomain
import Testing

/// Every server setting is one declaration (`ServerSetting`): its key, variable, flag and help
/// line come from it, its help names the default it parses to, and `ServerConfiguration` reads
/// it typed, blaming a bad value on its flag, variable or file line as before.
@Suite struct ServerSettingTests {
    /// No config file; the default database under `/srv/state`.
    private let home = ["STATE_DIRECTORY": "/srv/state", "QRCHECKIN_SERVER_CONFIG": ""]

    private func configuration(_ words: [String] = [], environment: [String: String] = [:], file: String? = nil) throws -> ServerConfiguration {
        var environment = home.merging(environment) { $1 }
        var words = words
        if let file {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("server-settings-\(UUID().uuidString).conf").path
            try file.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            words = ["-c", path] + words
            environment["QRCHECKIN_SERVER_CONFIG"] = nil
            return try ServerConfiguration(ParsedArguments(words, spec: ServeCommand.spec), environment: environment)
        }
        return try ServerConfiguration(ParsedArguments(words, spec: ServeCommand.spec), environment: environment)
    }

    /// The error reading `words`, `environment` and `file` fails with (`FILE` in its message
    /// stands for the config file's path).
    private func failure(_ words: [String] = [], environment: [String: String] = [:], file: String? = nil,
                         sourceLocation: SourceLocation = #_sourceLocation) -> (code: ExitCode, message: String)? {
        do {
            _ = try configuration(words, environment: environment, file: file)
            Issue.record("no error", sourceLocation: sourceLocation)
            return nil
        } catch let error as CommandError {
            let message = error.message.replacing(/^\S*server-settings-[^:]*\.conf/, with: "FILE")
            return (error.code, message)
        } catch {
            Issue.record("not a CommandError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test func everyDefaultParsesFromTheTextItsHelpShows() throws {
        var written = 0
        for setting in ServerSetting.all {
            guard let text = setting.defaultText else { continue }
            written += 1
            #expect(try setting.isDefault(text, file: "(default)", line: 0, key: setting.key.name), "\(setting.key.name): \(Quoted(text)) parses to its default")
            #expect(setting.key.help.contains(text), "\(setting.key.name)'s help names its default \(Quoted(text))")
        }
        #expect(written >= 20, "the defaults one can write are written")
        #expect(ServerSetting.duplicateTime.key.help.hasSuffix("(default 3h)."))
        #expect(ServerSetting.retention.key.help.contains(": 28d (default),"))
        #expect(ServerSetting.adminListen.defaultText == "127.0.0.1:8081")
        #expect(ServerSetting.visitorFields.defaultText == "none")
    }

    @Test func everySettingIsOneKeyOneVariableAndAFlagOfServe() {
        let names = ServerSetting.all.map(\.key.name)
        #expect(Set(names).count == names.count, "no setting declared twice")
        // The catalog also knows the old spellings (issue 41: `trusted-proxy`), read with a warning.
        let renamed = ServerSetting.renamed.map(\.old.key.name)
        #expect(renamed == ["trusted-proxy"])
        #expect(SettingCatalog.server.keys.map(\.name) == names + renamed)
        let options = ServeCommand.spec.options
        for key in ServerSetting.all.map(\.key) {
            #expect(key.environmentName == "QRCHECKIN_SERVER_" + key.name.uppercased().map { $0 == "-" || $0 == "." ? "_" : String($0) }.joined())
            // A name a shell and systemd's Environment= take: letters, digits and _ only.
            #expect(key.environmentName.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }, "\(key.environmentName)")
            #expect(SettingCatalog.server.knows(key.name))
            if key.scoped { #expect(SettingCatalog.server.knows(key.name + ".HALL-1")) }
            let option = options.first { $0.long == key.name }
            if ServerSetting.notFlags.contains(where: { $0.name == key.name }) {
                #expect(option == nil, "--\(key.name) is no flag")
            } else if key.name == ServerSetting.secretFile.name {
                #expect(option?.repeatable == true)
            } else {
                #expect(option?.help == key.help && option?.value == key.value, "--\(key.name) says what its declaration says")
            }
        }
        #expect(options.map(\.long) == ["config"] + names.filter { $0 != "name" && $0 != "exit" } + renamed + ["help"])
        #expect(PurgeCommand.spec.options.map(\.long).contains(ServerSetting.auditRetention.name))
    }

    /// `serve --help`'s paragraph on per-venue settings and the retention it names are prose:
    /// checked against the declarations here.
    @Test func serveSaysWhatTheDeclarationsSay() throws {
        let text = ServeCommand.spec.discussion.split(whereSeparator: \.isNewline).joined(separator: " ")
        let list = try #require(text.firstMatch(of: /A config file may set (.+?) per venue/)).1
        let said = list.replacing(" and ", with: ", ").split(separator: ", ").map(String.init)
        #expect(Set(said) == Set(ServerSetting.scoped.map(\.name).filter { $0 != ServerSetting.exit.name }))
        #expect(said.count == ServerSetting.scoped.count - 1)
        #expect(text.contains("'exit.HALL-1-OUT = HALL-1'"))
        #expect(text.contains("older than retention (\(PeriodText.of(ServerSetting.retention.defaultValue)))"))
        #expect(text.contains("older than refusal-retention (\(PeriodText.of(ServerSetting.refusalRetention.defaultValue)))"))
    }

    @Test func theProxySignInSettingsAndTheOneTrustList() throws {
        let proxy = try configuration(["--admin-auth", "password,proxy", "--proxy-role.admin", "it, owners", "--proxy-role.steward", "door",
                                       "--proxy-user-header", "X-Remote-User"])
        #expect(proxy.signIn.password)
        #expect(proxy.signIn.proxy == ProxySignInSettings(userHeader: "x-remote-user", roleGroups: [.admin: ["it", "owners"], .steward: ["door"]]))
        #expect(try configuration(["--admin-auth", "proxy"]).signIn.password == false)
        // The variables of proxy-role.* spell the dot as _ (a shell takes no dot in a name).
        let variables = try configuration(environment: ["QRCHECKIN_SERVER_ADMIN_AUTH": "proxy", "QRCHECKIN_SERVER_PROXY_ROLE_ADMIN": "it"])
        #expect(variables.signIn.proxy?.roleGroups == [.admin: ["it"]])
        #expect(throws: CommandError.self) { try configuration(["--admin-auth", "sso"]) }
        // The old spelling is the trust list, with a warning naming the new one; the new one wins.
        let old = try configuration(file: "trusted-proxy = 10.0.0.2\n")
        #expect(old.trustedProxies == [IPNetwork("10.0.0.2")!])
        #expect(old.warnings == ["trusted-proxy is now spelt trusted-proxies: read, but write trusted-proxies"])
        #expect(try configuration(["--trusted-proxies", "10.0.0.3"], file: "trusted-proxy = 10.0.0.2\n").trustedProxies == [IPNetwork("10.0.0.3")!])
        // A list that trusts anyone is a configuration error (78), from a flag too.
        for trust in ["*", "0.0.0.0/0", "::/0", "10.0.0.5, 0.0.0.0/0"] {
            let error = try #require(throws: CommandError.self) { try configuration(["--trusted-proxies", trust]) }
            #expect(error.code == .config && error.message.contains("would trust every address"), "\(trust)")
        }
    }

    @Test func noSettingGivesTheDeclaredDefaults() throws {
        let configuration = try configuration()
        #expect(configuration.listen.description == "127.0.0.1:8080")
        #expect(configuration.adminListen?.description == "127.0.0.1:8081")
        #expect(configuration.basePath == "/C")
        #expect(configuration.secretFiles.isEmpty && configuration.kioskStateDirectory == nil)
        #expect(configuration.venues.defaults == .standard && configuration.venues.servesUnlisted)
        #expect(configuration.retention == .standard)
        #expect(configuration.newDevices == .standard)
        #expect(configuration.safeNumberTries == 5)
        var limits = HTTPServerLimits()
        limits.threads = configuration.limits.threads
        #expect(configuration.limits == limits && configuration.limits.threads >= 2)
        #expect(configuration.look.receiptFreshnessSeconds == 600 && configuration.look.controller == nil)
        // Issue 41: one trust list, loopback by default (nginx on this host).
        #expect(configuration.trustedProxies == [IPNetwork("127.0.0.1/32")!, IPNetwork("::1/128")!] && configuration.occupancyOrigins.isEmpty)
        #expect(configuration.signIn.password && configuration.signIn.proxy == nil && configuration.warnings.isEmpty)
        #expect(configuration.database.description == "sqlite:/srv/state/checkins.db")
    }

    @Test func theLayersAreFileThenVariableThenFlag() throws {
        let file = "max-connections = 10\nbase-path = /\nadmin-listen = none\nretention = 14d\n"
        let fromFile = try configuration(file: file)
        #expect(fromFile.limits.connections == 10 && fromFile.basePath == "" && fromFile.adminListen == nil)
        #expect(fromFile.retention.checkInSeconds == 14 * 86_400 && fromFile.retention.refusalSeconds == 7 * 86_400)
        let overridden = try configuration(["--max-connections", "30"], environment: ["QRCHECKIN_SERVER_MAX_CONNECTIONS": "20"], file: file)
        #expect(overridden.limits.connections == 30)
        let shorter = try configuration(["--retention", "3d"])
        #expect(shorter.retention.refusalSeconds == 3 * 86_400, "refused scans are kept no longer than check-ins")
        let files = try configuration(["--secret-file", "a:b", "--secret-file", "c"], file: "secret-file = x:y\n")
        #expect(files.secretFiles == ["a:b", "c"], "each flag is one file")
        #expect(try configuration(file: "secret-file = x:y\n").secretFiles == ["x", "y"])
    }

    @Test func aVenuesOwnSettingsComeBeforeTheServerWideOnes() throws {
        let configuration = try configuration(file: """
            duplicate-time = 1h
            capacity = 100
            duplicate-time.HALL-1 = 2h
            capacity.HALL-1 = 40
            name.HALL-1 = 대강당
            visitor-fields.CAFE = name,phone
            exit.HALL-1-OUT = HALL-1
            """)
        let venues = configuration.venues
        #expect(venues.defaults.duplicateSeconds == 3600 && venues.defaults.presence.capacity == 100)
        let hall = try #require(venues.profiles[try VenueID("HALL-1")])
        #expect(hall.duplicateSeconds == 7200 && hall.presence.capacity == 40 && hall.displayName == "대강당")
        let cafe = try #require(venues.profiles[try VenueID("CAFE")])
        #expect(cafe.visitorFields == [.name, .phone] && cafe.duplicateSeconds == 3600 && cafe.displayName == nil)
        #expect(venues.profiles[try VenueID("HALL-1-OUT")]?.presence.exitOf == (try VenueID("HALL-1")))
    }

    /// The messages and exit statuses as they were before the declarations: 64 for a flag, 78
    /// for a variable or a file line.
    @Test func aBadValueNamesWhereItCameFrom() {
        let cases: [(words: [String], environment: [String: String], file: String?, code: ExitCode, message: String)] = [
            (["--listen", "x"], [:], nil, .usage,
             "--listen: must be HOST:PORT with a numeric address (127.0.0.1:8080, [::1]:8080, 0.0.0.0:80), got 'x'"),
            (["--max-connections-per-client", "-1"], [:], nil, .usage, "--max-connections-per-client: must be a whole number from 0 to 100000, got '-1'"),
            (["--safe-number-tries", "+5"], [:], nil, .usage, "--safe-number-tries: must be a whole number from 1 to 100, got '+5'"),
            (["--keep-counts", "maybe"], [:], nil, .usage, "--keep-counts: must be yes or no, got 'maybe'"),
            (["--duplicate-time", "31d"], [:], nil, .usage, "--duplicate-time: must be a duration of 0 to 30 days: 90s, 30m, 3h or 1d, got '31d'"),
            (["--secret-file", ""], [:], nil, .usage, "--secret-file: must be a path"),
            ([], ["QRCHECKIN_SERVER_VISITOR_FIELDS": "email"], nil, .config,
             "$QRCHECKIN_SERVER_VISITOR_FIELDS: must be none, name, phone or name,phone, got 'email'"),
            ([], ["QRCHECKIN_SERVER_DURABILITY": "fast"], nil, .config, "$QRCHECKIN_SERVER_DURABILITY: must be full or normal, got 'fast'"),
            ([], [:], "retention = 2d\nrefusal-retention = 3d\n", .config,
             "FILE:2: refusal-retention: must not be longer than retention (2 days), got 3 days"),
            ([], [:], "capacity.HALL-1 = 0\n", .config, "FILE:1: capacity.HALL-1: must be a whole number from 1 to 1000000, got '0'"),
            ([], [:], "exit = HALL-1\n", .config, "FILE:1: exit: is set per venue only: exit.VENUE-OUT = VENUE"),
            ([], ["QRCHECKIN_SERVER_EXIT": "HALL-1"], nil, .config, "$QRCHECKIN_SERVER_EXIT: is set per venue only: exit.VENUE-OUT = VENUE"),
            ([], [:], "exit.HALL-1 = HALL-1\n", .config, "FILE:1: exit.HALL-1: a venue cannot be its own exit"),
            ([], [:], "name.bad_venue = x\n", .config,
             "FILE:1: name.bad_venue: invalid venue id 'bad_venue': use upper case (BAD_VENUE): ids are case-sensitive and URLs stay compact in upper case"),
            ([], [:], "period.HALL-1 = 0\n", .config, "FILE:1: period.HALL-1: must be a whole number of seconds from 1 to 3600 (15, 15s or 1m), got '0'"),
            // A bad line is an error even while a higher layer overrides it.
            (["--base-path", "/C"], [:], "base-path = C/\n", .config,
             "FILE:1: base-path: must be / or a path like /C (letters, digits, - . _ ~; no trailing /), got 'C/'"),
        ]
        for (words, environment, file, code, message) in cases {
            let error = failure(words, environment: environment, file: file)
            #expect(error?.code == code, "\(message)")
            #expect(error?.message == message)
        }
    }
}
