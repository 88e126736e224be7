// swift-tools-version:6.0
// qrcheckin is two products over one shared base, and the folders say so:
//   Sources/Shared  the token format, OS primitives, JSON, words, QR codes and the command-line framework
//   Sources/Kiosk   qrcheckin: the daemon, its core, its renderers and its output adapters
//   Sources/Server  qrcheckin-server: the check-in use case, the ledgers, HTTP and the site
//   Sources/C       one module per C library
// Targets are layers (seed 003: Domain <- Data, Presentation <- Application), and the compiler
// enforces the arrows: a Kiosk target never imports a Server target or the reverse; both import
// only Shared ones. docs/DEVELOPMENT.md draws the whole house.
import PackageDescription

/// A target whose sources are under `Sources/<half>/<name>`.
func target(_ name: String, _ half: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: "Sources/\(half)/\(name)")
}

/// A test target under `Tests/<half>/<name>`.
func testTarget(_ name: String, _ half: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, path: "Tests/\(half)/\(name)")
}

/// A C module under `Sources/C/<name>` (a target of headers and stubs).
func cTarget(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: "Sources/C/\(name)")
}

/// A system-library module under `Sources/C/<name>` (a module map naming the library).
func cSystemLibrary(_ name: String, pkgConfig: String? = nil, apt: [String] = []) -> Target {
    .systemLibrary(name: name, path: "Sources/C/\(name)", pkgConfig: pkgConfig, providers: apt.isEmpty ? nil : [.apt(apt)])
}

let package = Package(
    name: "qrcheckin",
    products: [
        .executable(name: "qrcheckin", targets: ["qrcheckin"]),
        .executable(name: "qrcheckin-server", targets: ["qrcheckin-server"]),
    ],
    targets: [
        // MARK: C libraries
        // Stubs that load a library on the first call into it (CLibraryLoader says why), so
        // commands that use none of them never map them. Headers only at build time
        // (libqrencode-dev, libpng-dev, libsodium-dev, nettle-dev, libcurl4-openssl-dev); nothing links them.
        cTarget("CLibraryLoader"),
        cTarget("CQRencode", ["CLibraryLoader"]),   // both: QR symbols (the server's only for TOTP enrolments)
        cTarget("CPNG", ["CLibraryLoader"]),        // the kiosk's: PNG images (setjmp kept in C)
        cTarget("CCurl", ["CLibraryLoader"]),       // both: outgoing HTTP(S) (libcurl4): the kiosk's reporter, the server's webhooks
        cTarget("CSodium", ["CLibraryLoader"]),     // both: random bytes, compares, BLAKE2b, Argon2id
        cTarget("CHMAC", ["CSodium", "CLibraryLoader"]),  // both: HMAC-SHA256 from Nettle, else libsodium
        cSystemLibrary("CLinux"),
        // The command line as the kernel passed it, kept by an ELF constructor (no /proc needed).
        cTarget("CProcessArguments"),
        // The server's: only qrcheckin-server links them.
        cSystemLibrary("CSQLite", pkgConfig: "sqlite3", apt: ["libsqlite3-dev"]),
        cSystemLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: ["libmicrohttpd-dev"]),
        cSystemLibrary("CPostgres", pkgConfig: "libpq", apt: ["libpq-dev"]),
        cSystemLibrary("COath", pkgConfig: "liboath", apt: ["liboath-dev"]),  // TOTP (RFC 6238) and base32

        // MARK: Shared by both executables
        // The check-in code: venue ids, keys, tokens, safe numbers, issuing and verifying, the
        // wall clock port. Swift stdlib only.
        target("SharedDomain", "Shared"),
        // JSON without Foundation (which costs the daemon megabytes), and the JSON of the values
        // both halves exchange (a kiosk's report and the server's answer). Swift stdlib and the
        // shared Domain only.
        target("SharedJSON", "Shared", ["SharedDomain"]),
        // What both halves print: languages, the words they share, UTC times, terminal display
        // width, the Prometheus text format (one writer for metrics.prom and /metrics). Swift
        // stdlib, the shared Domain and SharedJSON's byte cursor only.
        target("SharedText", "Shared", ["SharedDomain", "SharedJSON"]),
        // OS primitives: descriptors, atomic files, trusted directories, secrets, HMAC and
        // random bytes, signals, clocks, sd_notify, the journal. No PNG, no QR.
        target("SharedSystem", "Shared", ["SharedDomain", "SharedJSON", "CSodium", "CHMAC", "CLinux", "CProcessArguments"]),
        // The command-line framework both executables share: options, subcommands, help,
        // setting layers (file, environment, flags), exit codes and typed command errors.
        target("SharedCLI", "Shared", ["SharedDomain", "SharedSystem"]),
        // The server's one concurrency model (async/await): a pool of threads for blocking work,
        // services and the group that starts and stops them, signals as an async sequence, async
        // commands and the bridge from a synchronous main. The kiosk (synchronous, one thread)
        // never links it: Swift's concurrency runtime would cost its binary half a megabyte.
        target("SharedAsync", "Shared", ["SharedCLI", "SharedDomain", "SharedSystem", "CLinux"]),
        // QR symbols as values and their drawings: the matrix, the error correction levels, the
        // encoder port, terminal text and SVG. One implementation for both halves: the kiosk's
        // screens and files, the server's TOTP enrolments (issue 41). Swift stdlib only.
        target("SharedQR", "Shared"),
        // libqrencode behind SharedQR's encoder port, loaded on the first symbol drawn.
        target("SharedQREncoder", "Shared", ["SharedQR", "SharedSystem", "CQRencode", "CLinux"]),
        // Outgoing HTTP as plain values: a request, a response, the result of an exchange and the
        // transport port both halves' cores talk to (the kiosk's reporter, the server's webhook
        // deliveries). Swift stdlib only.
        target("SharedHTTPClient", "Shared"),
        // libcurl's multi interface behind SharedHTTPClient's transport port (`CurlTransport`),
        // loaded on the first exchange: the kiosk's daemon and the server's commands that send
        // nothing never map it.
        target("SharedCurl", "Shared", ["SharedHTTPClient", "SharedSystem", "CCurl"]),
        // For tests only (no executable depends on it): a clock tests move (`TestClock`), for
        // deadlines and schedules on an injected `any Clock<Duration>`. Swift stdlib only.
        target("SharedTesting", "Shared"),

        // MARK: The kiosk: qrcheckin
        // The daemon's decisions as values: the rotation model, the view model, the daemon's
        // state machine (events in, effects out), its ports, the control protocol and the
        // documents it writes (current.json, STATUS=). Swift stdlib and shared values only.
        target("KioskCore", "Kiosk", ["SharedDomain", "SharedJSON", "SharedText", "SharedQR", "SharedHTTPClient"]),
        // The kiosk's renderers: the output files, metrics.prom, the full-screen kiosk (`show`)
        // and `status`, drawing QR codes with SharedQR's.
        target("KioskViews", "Kiosk", ["KioskCore", "SharedDomain", "SharedJSON", "SharedText", "SharedQR"]),
        // The kiosk's adapters behind KioskCore's ports: libpng, the output directory's
        // generations, the control socket, saved settings, the clock's sync. (The reporter's HTTP
        // is SharedCurl's, loaded only by `qrcheckin report`, never by the daemon.)
        target("KioskAdapters", "Kiosk", ["KioskCore", "SharedDomain", "SharedJSON", "SharedSystem", "SharedQR", "SharedQREncoder", "CPNG", "CLinux"]),
        // Application: the commands and the composition root.
        .executableTarget(
            name: "qrcheckin",
            dependencies: ["SharedCLI", "SharedDomain", "SharedJSON", "SharedText", "SharedSystem", "SharedQR", "SharedQREncoder", "SharedHTTPClient",
                           "SharedCurl", "KioskCore", "KioskViews", "KioskAdapters", "CLinux"],
            path: "Sources/Kiosk/qrcheckin"
        ),

        // MARK: The check-in server: qrcheckin-server
        // Check-ins, the ledger port and the check-in use case. Swift stdlib and the shared Domain
        // (and SharedJSON, which reads a kiosk's report: the one definition both halves share).
        target("ServerDomain", "Server", ["SharedDomain", "SharedJSON"]),
        // The ledger in SQL, written once for SQLite and PostgreSQL: the schema as versioned
        // migrations, every statement rendered per dialect, and what runs in what order over an
        // engine's session (`SQLLedger`). The engines only open sessions.
        target("ServerLedgerSQL", "Server", ["ServerDomain", "SharedDomain", "SharedJSON"]),
        // The embedded ledger: SQLite in WAL mode with group commit.
        target("ServerSQLite", "Server", ["ServerDomain", "ServerLedgerSQL", "SharedAsync", "SharedDomain", "SharedSystem", "CSQLite"]),
        // The shared ledger: PostgreSQL through libpq, for several servers.
        target("ServerPostgres", "Server", ["ServerDomain", "ServerLedgerSQL", "SharedAsync", "SharedDomain", "SharedSystem", "CPostgres"]),
        // For tests only (no executable links them): the in-memory ledger, the reference every
        // engine is held to and what the tests above the ledger run on...
        target("ServerLedgerTesting", "Server", ["ServerDomain", "SharedDomain", "SharedSystem"]),
        // ...and the rules every ledger passes, one contract suite per port, run by each
        // ledger's tests against a fresh ledger.
        target("ServerLedgerContract", "Server", ["ServerDomain", "SharedDomain", "SharedJSON", "SharedSystem"]),
        // Plain HTTP request and response values between the adapter and the site. Swift stdlib only.
        target("ServerHTTPTypes", "Server"),
        // The HTTP adapter: libmicrohttpd in, plain values out; listening sockets, proxies.
        // SharedSystem for the one monotonic clock; SharedAsync for the listener as a Service
        // and the blocking pool its stop joins libmicrohttpd's threads on.
        target("ServerHTTP", "Server", ["ServerHTTPTypes", "SharedAsync", "SharedDomain", "SharedSystem", "CMicroHTTPD"]),
        // What operators read: exports (CSV, JSON lines), tables, counts, local times.
        target("ServerReports", "Server", ["ServerDomain", "SharedDomain", "SharedJSON", "SharedText"]),
        // What both sites' pages are made of: the HTML value (escapes what it interpolates),
        // languages and the words both say, form tokens, the cross-site check, security headers.
        target("ServerWeb", "Server", ["ServerDomain", "ServerHTTPTypes", "SharedDomain", "SharedText"]),
        // The site: routes, pages in Korean and English, cookies, rate limits, metrics;
        // a request in, a response out.
        target("ServerSite", "Server", ["ServerDomain", "ServerReports", "ServerHTTPTypes", "ServerWeb", "SharedDomain", "SharedJSON", "SharedText"]),
        // The operator console: accounts, roles in one table, sessions, pages for staff (ko/en);
        // a request in, a response out, on its own listener. Not the visitor site: what both
        // need is ServerWeb's.
        target("ServerConsole", "Server", ["ServerDomain", "ServerReports", "ServerHTTPTypes", "ServerWeb", "ServerSecondFactor", "SharedDomain", "SharedJSON", "SharedText"]),
        // The console's second factor (issue 41): TOTP through liboath with replay refusal, the
        // otpauth URI and its QR code (SharedQR's renderers), single-use recovery codes kept as
        // keyed hashes, and TOTP secrets sealed (libsodium's secretbox) under a key derived
        // from the server's secret. No ledger: the sign-in keeps what this makes.
        target("ServerSecondFactor", "Server", ["SharedDomain", "SharedSystem", "SharedQR", "SharedQREncoder", "COath"]),
        // Issue 40's webhooks: the payload, Standard Webhooks' signature (HMAC from Nettle or
        // libsodium, base64 from libsodium) and the delivery service (libcurl through
        // SharedCurl, loaded on the first delivery).
        target("ServerWebhooks", "Server", ["ServerDomain", "SharedDomain", "SharedJSON", "SharedText", "SharedSystem", "SharedAsync",
                                            "SharedHTTPClient", "SharedCurl"]),
        // Application: the commands and the composition root.
        .executableTarget(
            name: "qrcheckin-server",
            dependencies: ["SharedAsync", "SharedCLI", "SharedDomain", "SharedSystem", "SharedText", "ServerDomain", "ServerLedgerSQL", "ServerSQLite",
                           "ServerPostgres", "ServerHTTP", "ServerHTTPTypes", "ServerReports", "ServerWeb", "ServerSite", "ServerConsole",
                           "ServerSecondFactor", "ServerWebhooks", "SharedQR", "CLinux"],
            path: "Sources/Server/qrcheckin-server"
        ),

        // MARK: Tests
        testTarget("SharedDomainTests", "Shared", ["SharedDomain"]),
        testTarget("SharedJSONTests", "Shared", ["SharedJSON", "SharedDomain"]),
        testTarget("SharedSystemTests", "Shared", ["SharedSystem", "SharedDomain", "SharedJSON"]),
        testTarget("SharedCLITests", "Shared", ["SharedCLI"]),
        testTarget("SharedAsyncTests", "Shared", ["SharedAsync", "SharedCLI", "SharedSystem", "SharedTesting"]),
        testTarget("SharedTextTests", "Shared", ["SharedText"]),
        testTarget("SharedQRTests", "Shared", ["SharedQR"]),
        testTarget("SharedQREncoderTests", "Shared", ["SharedQREncoder", "SharedQR"]),
        testTarget("SharedCurlTests", "Shared", ["SharedCurl", "SharedHTTPClient"]),
        // SharedSystem for the real HMAC the reporter's core signs with.
        testTarget("KioskCoreTests", "Kiosk", ["KioskCore", "KioskViews", "SharedDomain", "SharedJSON", "SharedText", "SharedQR", "SharedSystem", "SharedHTTPClient"]),
        testTarget("KioskViewsTests", "Kiosk", ["KioskViews", "KioskCore", "SharedDomain", "SharedJSON", "SharedText", "SharedQR"]),
        testTarget("KioskAdaptersTests", "Kiosk", ["KioskAdapters", "KioskCore", "SharedSystem", "SharedDomain", "SharedJSON", "SharedQR", "SharedQREncoder"]),
        // The executable's own logic (settings, locations, argument parsing), by @testable import.
        testTarget("qrcheckinTests", "Kiosk", ["qrcheckin", "SharedCLI", "SharedSystem", "SharedDomain", "KioskAdapters"]),
        testTarget("ServerDomainTests", "Server", ["SharedTesting", "ServerDomain", "ServerLedgerContract", "ServerLedgerTesting", "ServerLedgerSQL", "SharedDomain", "SharedJSON", "SharedSystem"]),
        testTarget("ServerSQLiteTests", "Server", ["SharedTesting", "ServerSQLite", "ServerLedgerContract", "SharedAsync", "ServerLedgerSQL", "ServerDomain", "SharedDomain", "CSQLite"]),
        testTarget("ServerPostgresTests", "Server",
                   ["SharedTesting", "ServerPostgres", "ServerLedgerContract", "SharedAsync", "ServerLedgerSQL", "ServerDomain", "SharedDomain", "SharedJSON", "SharedSystem", "ServerSQLite", "CPostgres"]),
        testTarget("ServerHTTPTests", "Server", ["SharedTesting", "ServerHTTP", "ServerHTTPTypes", "SharedAsync", "SharedDomain", "SharedSystem"]),
        // The server executable's own logic (the commands' shared setup, their synopses, the settings), by @testable import.
        testTarget("qrcheckin-serverTests", "Server", ["qrcheckin-server", "SharedAsync", "SharedCLI", "ServerDomain", "ServerSQLite", "ServerHTTP", "ServerConsole", "ServerReports", "SharedDomain"]),
        testTarget("ServerWebhooksTests", "Server", ["ServerWebhooks", "ServerDomain", "ServerSQLite", "ServerLedgerSQL", "SharedDomain", "SharedSystem",
                                                     "SharedHTTPClient", "SharedAsync"]),
        testTarget("ServerWebTests", "Server", ["ServerWeb", "ServerDomain", "ServerHTTPTypes", "SharedDomain"]),
        testTarget("ServerSecondFactorTests", "Server", ["ServerSecondFactor", "SharedDomain", "SharedSystem", "SharedQR", "SharedQREncoder", "COath"]),
        testTarget("ServerConsoleTests", "Server",
                   ["SharedTesting", "ServerConsole", "ServerDomain", "ServerLedgerContract", "ServerLedgerTesting", "ServerHTTPTypes", "ServerReports", "SharedDomain", "SharedJSON", "SharedText"]),
        testTarget("ServerSiteTests", "Server",
                   ["SharedTesting", "ServerSite", "ServerReports", "ServerDomain", "ServerLedgerContract", "ServerLedgerTesting", "ServerHTTPTypes", "ServerWeb", "SharedDomain", "SharedSystem", "SharedText",
                    "SharedJSON"]),
    ],
    swiftLanguageModes: [.v6]
)

// Golden files (the renderers' expected bytes, compared whole) are test data beside the tests
// that read them by path: neither sources nor bundled resources.
for target in package.targets where ["KioskAdaptersTests", "KioskViewsTests"].contains(target.name) {
    target.exclude.append("golden")
}
// Likewise the second factor's vectors (pyotp's codes and URIs: Tests/e2e/totp_vectors.py).
for target in package.targets where target.name == "ServerSecondFactorTests" {
    target.exclude.append("vectors")
}
