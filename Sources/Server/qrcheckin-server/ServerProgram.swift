import SharedAsync
import SharedCLI

/// qrcheckin-server: the check-in server's commands and its `--help`.
enum ServerProgram {
    static let version = "0.1.0"

    /// The program as a command-line tool.
    static let tool = AsyncCommandLineTool(
        name: "qrcheckin-server", version: version,
        about: "The check-in server: turns a scanned qrcheckin code into a recorded check-in.",
        commands: [ServeCommand.self, CheckinsCommand.self, CheckinCommand.self, CheckoutCommand.self, InsideCommand.self, OverlapsCommand.self, StatusCommand.self, PurgeCommand.self, EraseCommand.self, MigrateCommand.self, ImportCommand.self, AuditCommand.self, UserCommand.self],
        examples: [
            "qrcheckin-server serve                          # 127.0.0.1:8080, every venue the secret signs",
            "qrcheckin-server serve --listen 0.0.0.0:8080 --secret-file /etc/qrcheckin-server/secret",
            "qrcheckin-server checkins --format csv > visitors.csv",
            "qrcheckin-server checkin --venue HALL-1 --name '김민지'     # a visitor without a phone",
            "qrcheckin-server purge --dry-run                        # what the retention deletes now",
            "qrcheckin-server inside --venue HALL-1                  # who is inside now (the evacuation roll)",
        ])
}

extension CommandSpec {
    /// A qrcheckin-server command, its examples from `ServerExamples`.
    init(name: String, summary: String, operands: [Operand] = [], options: [OptionSpec] = [],
         positionals: ClosedRange<Int> = 0...0, discussion: String = "") {
        self.init(program: "qrcheckin-server", name: name, summary: summary, operands: operands, options: options,
                  positionals: positionals, discussion: discussion, examples: ServerExamples.examples(for: name))
    }
}

/// The 2-4 examples that end each command's `--help`.
enum ServerExamples {
    static func examples(for name: String) -> [String] {
        switch name {
        case "serve": [
            "qrcheckin-server serve                                   # the defaults the OPTIONS name",
            "qrcheckin-server serve --listen 127.0.0.1:8080 --database sqlite:/tmp/c.db --secret-file secret",
            "qrcheckin-server serve -c /etc/qrcheckin-server/qrcheckin-server.conf   # settings from a file",
        ]
        case "checkins": [
            "qrcheckin-server checkins                                # the log as a table",
            "qrcheckin-server checkins --format csv > visitors.csv",
            "qrcheckin-server checkins --venue HALL-1 --from 2026-11-30T18:00:00+09:00 --until 2026-11-30T20:00:00+09:00",
            "qrcheckin-server checkins --count --by day,venue --kept  # counts, also of purged days",
        ]
        case "checkin": [
            "qrcheckin-server checkin --venue HALL-1 --name '김민지'",
            "sudo qrcheckin-server checkin --venue HALL-1 --name Lee --phone 010-1234-5678",
        ]
        case "checkout": [
            "qrcheckin-server checkout --checkin 93812746501234       # that visit ends now",
            "qrcheckin-server checkout --venue HALL-1 --all           # everyone still inside HALL-1",
        ]
        case "inside": [
            "qrcheckin-server inside                                  # the evacuation roll, every venue",
            "qrcheckin-server inside --venue HALL-1 --format csv > roll.csv",
            "qrcheckin-server inside --venue HALL-1 --format json | jq length",
        ]
        case "overlaps": [
            "qrcheckin-server overlaps --checkin 93812746501234 --margin 15m",
            "qrcheckin-server overlaps --device Zq3v0p-Xw2LbN8aT1cQ9kE --from 2026-11-24T00:00:00+09:00 --until now --format csv",
        ]
        case "status": [
            "qrcheckin-server status                                  # today, the last hour, per venue",
            "qrcheckin-server status --json | jq .today",
        ]
        case "purge": [
            "qrcheckin-server purge --dry-run                         # what would be deleted now",
            "qrcheckin-server purge                                   # delete it (the server does so daily)",
            "qrcheckin-server purge --retention 14d --dry-run",
        ]
        case "erase": [
            "qrcheckin-server erase --checkin 93812746501234          # the visitor of that receipt, after asking",
            "qrcheckin-server erase --checkin 93812746501234 --only   # that check-in alone",
            "qrcheckin-server erase --phone 010-1234-5678 --dry-run   # only show what would go",
            "qrcheckin-server erase --device Zq3v0p-Xw2LbN8aT1cQ9kE --yes",
        ]
        case "migrate": [
            "qrcheckin-server migrate                                 # the database serve would use",
            "qrcheckin-server migrate --database postgresql://checkin@db.example/checkins?sslmode=verify-full",
        ]
        case "import": [
            "qrcheckin-server import --from sqlite:/var/lib/qrcheckin-server/checkins.db",
            "qrcheckin-server import --from sqlite:hall.db --venue HALL-1 --database 'postgresql:host=/run/postgresql dbname=checkins'",
        ]
        case "user": [
            "qrcheckin-server user add alice --role admin             # asks for the password twice",
            "qrcheckin-server user add door1 --role steward --password-file pw.txt",
            "qrcheckin-server user list",
            "qrcheckin-server user disable door1                      # ends its console sessions too",
        ]
        default: []
        }
    }
}
