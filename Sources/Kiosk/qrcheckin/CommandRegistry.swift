import SharedCLI
/// Every subcommand, in the order `qrcheckin --help` lists them.
enum CommandRegistry {
    static let commands: [any Command.Type] = [
        RunCommand.self,
        StatusCommand.self,
        CtlCommand.self,
        ShakeCommand.self,
        EncodeCommand.self,
        CodeCommand.self,
        VerifyCommand.self,
        KeygenCommand.self,
        ShowCommand.self,
        ReportCommand.self,
    ]

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }
}
