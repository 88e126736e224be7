// swift-tools-version:6.0
// The layers of seed 003 as SwiftPM targets: the compiler enforces the one-way arrows.
//   qrcheckin (Application) -> Presentation -> Domain <- Data -> C modules
// The executables hold composition and commands only: every syscall is behind a CheckInData
// type, and the daemon's effects are performed by Presentation's DaemonEffectPerformer through
// ports the executable supplies (the core's tests supply in-memory ones).
import PackageDescription

let package = Package(
    name: "qrcheckin",
    products: [
        .executable(name: "qrcheckin", targets: ["qrcheckin"]),
        .executable(name: "qrcheckin-server", targets: ["qrcheckin-server"]),
    ],
    targets: [
        // The kiosk's C libraries, one module each: its header (with the setjmp-guarded PNG
        // writer's declarations) and stubs that load the library on the first call into it, so
        // commands that use none of them never map them (CLibraryLoader says why). Headers only
        // at build time (libqrencode-dev, libpng-dev, libsodium-dev); nothing links them.
        .target(name: "CLibraryLoader"),
        .target(name: "CQRencode", dependencies: ["CLibraryLoader"]),
        .target(name: "CPNG", dependencies: ["CLibraryLoader"]),
        .target(name: "CSodium", dependencies: ["CLibraryLoader"]),
        .systemLibrary(name: "CLinux"),
        // The command line as the kernel passed it, kept by an ELF constructor (no /proc needed).
        .target(name: "CProcessArguments"),
        // HMAC-SHA256 from Nettle (loaded on first use: its SHA extensions) or else libsodium.
        // Needs Nettle's header only (nettle-dev), never links it.
        .target(name: "CHMAC", dependencies: ["CSodium", "CLibraryLoader"]),
        // The server's C libraries; only qrcheckin-server links them.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // Domain: entities, use cases and ports. Swift stdlib only.
        .target(name: "CheckInDomain"),
        // JSON without Foundation (which costs the daemon megabytes): current.json and the
        // control socket's replies. Swift stdlib only.
        .target(name: "CheckInJSON"),
        // Data: adapters behind the Domain's ports (C libraries, files, sockets, systemd).
        .target(name: "CheckInData", dependencies: ["CheckInDomain", "CheckInJSON", "CQRencode", "CPNG", "CSodium", "CHMAC", "CLinux", "CProcessArguments"]),
        // Presentation: the view model and the views that render its state.
        .target(name: "CheckInPresentation", dependencies: ["CheckInDomain", "CheckInJSON"]),
        // The command-line framework every executable shares: options, subcommands, help,
        // setting layers (file, environment, flags), exit codes and typed command errors.
        .target(name: "CheckInCLI", dependencies: ["CheckInDomain", "CheckInData"]),
        // The server half (qrcheckin-server; DESIGN.md "The server half"). Its Domain: check-ins,
        // the ledger port and the check-in use case. Swift stdlib and the shared Domain only.
        .target(name: "CheckInServerDomain", dependencies: ["CheckInDomain"]),
        // The ledger's schema as versioned migrations for SQLite and PostgreSQL. Swift stdlib only.
        .target(name: "CheckInLedgerSQL"),
        // The embedded ledger: SQLite in WAL mode with group commit.
        .target(name: "CheckInSQLite", dependencies: ["CheckInServerDomain", "CheckInLedgerSQL", "CheckInDomain", "CSQLite"]),
        // The shared ledger: PostgreSQL through libpq, for several servers (issue 21).
        .target(name: "CheckInPostgres", dependencies: ["CheckInServerDomain", "CheckInLedgerSQL", "CheckInDomain", "CPostgres"]),
        // Plain HTTP request and response values between the adapter and the site. Swift stdlib only.
        .target(name: "CheckInWeb"),
        // The HTTP adapter: libmicrohttpd in, plain values out; listening sockets, proxies.
        .target(name: "CheckInHTTP", dependencies: ["CheckInWeb", "CheckInDomain", "CMicroHTTPD"]),
        // The site: pages in Korean and English, cookies, rate limits, metrics; request in,
        // response out. Swift stdlib, the Domains, and the kiosk's words (Vocabulary).
        .target(name: "CheckInServerPresentation",
                dependencies: ["CheckInServerDomain", "CheckInDomain", "CheckInWeb", "CheckInPresentation", "CheckInJSON"]),
        // The rules every ledger passes, run by each ledger's tests against a fresh ledger.
        .target(name: "CheckInLedgerContract", dependencies: ["CheckInServerDomain", "CheckInDomain"]),
        // Application: CLI, one type per command, the composition root.
        .executableTarget(
            name: "qrcheckin",
            dependencies: ["CheckInCLI", "CheckInDomain", "CheckInJSON", "CheckInData", "CheckInPresentation"]
        ),

        // The check-in server's composition root: `serve`, `checkins`.
        .executableTarget(
            name: "qrcheckin-server",
            dependencies: ["CheckInCLI", "CheckInDomain", "CheckInData", "CheckInServerDomain", "CheckInSQLite", "CLinux",
                           "CheckInPostgres", "CheckInLedgerSQL", "CheckInHTTP", "CheckInServerPresentation"]
        ),

        .testTarget(name: "CheckInDomainTests", dependencies: ["CheckInDomain"]),
        .testTarget(name: "CheckInDataTests", dependencies: ["CheckInData", "CheckInDomain", "CheckInJSON"]),
        .testTarget(name: "CheckInCLITests", dependencies: ["CheckInCLI"]),
        // The executable's own logic (settings, locations, argument parsing), by @testable import.
        .testTarget(name: "qrcheckinTests", dependencies: ["qrcheckin", "CheckInCLI", "CheckInData", "CheckInDomain"]),
        .testTarget(name: "CheckInServerPresentationTests",
                    dependencies: ["CheckInServerPresentation", "CheckInServerDomain", "CheckInDomain", "CheckInWeb", "CheckInData", "CheckInPresentation", "CheckInJSON"]),
        .testTarget(name: "CheckInHTTPTests", dependencies: ["CheckInHTTP"]),
        .testTarget(name: "CheckInSQLiteTests", dependencies: ["CheckInSQLite", "CheckInLedgerContract", "CheckInLedgerSQL", "CheckInServerDomain", "CheckInDomain", "CSQLite"]),
        .testTarget(name: "CheckInPostgresTests",
                    dependencies: ["CheckInPostgres", "CheckInLedgerContract", "CheckInLedgerSQL", "CheckInServerDomain", "CheckInDomain", "CheckInSQLite", "CPostgres"]),
        .testTarget(name: "CheckInServerDomainTests",
                    dependencies: ["CheckInServerDomain", "CheckInLedgerContract", "CheckInLedgerSQL", "CheckInDomain", "CheckInData"]),
        .testTarget(name: "CheckInPresentationTests", dependencies: ["CheckInPresentation", "CheckInDomain", "CheckInJSON"]),
    ],
    swiftLanguageModes: [.v6]
)

// Golden files (the renderers' expected bytes, compared whole) are test data beside the tests
// that read them by path: neither sources nor bundled resources.
for target in package.targets where ["CheckInDataTests", "CheckInPresentationTests"].contains(target.name) {
    target.exclude.append("golden")
}
