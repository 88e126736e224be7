import SharedCLI

/// The top level: qrcheckin's commands and its `--help`; `CommandLineTool` does the rest.
enum Program {
    static let version = "0.1.0"

    /// qrcheckin as a command-line tool.
    static let tool = CommandLineTool(
        name: "qrcheckin", version: version,
        about: "Rotating, signed QR check-in codes for venues: a daemon and its tools.",
        commands: CommandRegistry.commands,
        examples: [
            "qrcheckin run                      # the daemon on embedded defaults",
            "qrcheckin status --watch           # its live countdown",
            "qrcheckin encode -o - HELLO > hello.png",
        ])
}
