// swift-tools-version:6.0
// The layers of seed 003 as SwiftPM targets: the compiler enforces the one-way arrows.
//   qrcheckin (Application) -> Presentation -> Domain <- Data -> C modules
import PackageDescription

let package = Package(
    name: "qrcheckin",
    products: [
        .executable(name: "qrcheckin", targets: ["qrcheckin"]),
    ],
    targets: [
        // System libraries: one module per C library, shims for macros and setjmp-guarded calls.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CLinux"),
        // The command line as the kernel passed it, kept by an ELF constructor (no /proc needed).
        .target(name: "CProcessArguments"),

        // Domain: entities, use cases and ports. Swift stdlib only.
        .target(name: "CheckInDomain"),
        // JSON without Foundation (which costs the daemon megabytes): current.json and the
        // control socket's replies. Swift stdlib only.
        .target(name: "CheckInJSON"),
        // Data: adapters behind the Domain's ports (C libraries, files, sockets, systemd).
        .target(name: "CheckInData", dependencies: ["CheckInDomain", "CheckInJSON", "CQRencode", "CPNG", "CSodium", "CLinux", "CProcessArguments"]),
        // Presentation: the view model and the views that render its state.
        .target(name: "CheckInPresentation", dependencies: ["CheckInDomain", "CheckInJSON"]),
        // Application: CLI, one type per command, the composition root.
        .executableTarget(
            name: "qrcheckin",
            dependencies: ["CheckInDomain", "CheckInJSON", "CheckInData", "CheckInPresentation"]
        ),

        .testTarget(name: "CheckInDomainTests", dependencies: ["CheckInDomain"]),
        .testTarget(name: "CheckInDataTests", dependencies: ["CheckInData", "CheckInDomain"]),
        .testTarget(name: "CheckInPresentationTests", dependencies: ["CheckInPresentation", "CheckInDomain", "CheckInJSON"]),
    ],
    swiftLanguageModes: [.v6]
)

// Golden files (the renderers' expected bytes, compared whole) are test data beside the tests
// that read them by path: neither sources nor bundled resources.
for target in package.targets where ["CheckInDataTests", "CheckInPresentationTests"].contains(target.name) {
    target.exclude.append("golden")
}
