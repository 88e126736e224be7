import SharedCLI
import SharedSystem

extension CommandSpec {
    /// A qrcheckin command, its examples from `CommandExamples`.
    init(name: String, summary: String, operands: [Operand] = [], options: [OptionSpec] = [],
         positionals: ClosedRange<Int> = 0...0, discussion: String = "") {
        self.init(program: "qrcheckin", name: name, summary: summary, operands: operands, options: options,
                  positionals: positionals, discussion: discussion, examples: CommandExamples.examples(for: name))
    }
}

extension SettingKey {
    /// A qrcheckin setting, its variable `QRCHECKIN_NAME`.
    init(name: String, value: String, help: String) {
        self.init(name: name, value: value, help: help, environmentPrefix: "QRCHECKIN_")
    }
}

extension SettingCatalog {
    /// qrcheckin's settings; config files from `$QRCHECKIN_CONFIG`.
    static let qrcheckin = SettingCatalog(keys: DaemonSetting.all, configVariable: "QRCHECKIN_CONFIG")
}

extension SettingLayers {
    /// qrcheckin's layers; `installed` config files as `ConfigFileList` takes them.
    init(flags: ParsedArguments, environment: [String: String], installed: [String] = []) throws(CommandError) {
        try self.init(flags: flags, environment: environment, catalog: .qrcheckin, installed: installed)
    }
}

extension ConfigFileList {
    /// qrcheckin's config files: `--config` flags, else `$QRCHECKIN_CONFIG`, else `installed`.
    init(flags: [String], environment: [String: String], installed: [String] = []) {
        self.init(flags: flags, environment: environment, variable: SettingCatalog.qrcheckin.configVariable, installed: installed)
    }

    /// Every file with its entries, checked against qrcheckin's settings.
    func read() throws(CommandError) -> [(path: String, entries: [KeyValueFile.Entry])] {
        try read(catalog: .qrcheckin)
    }
}
