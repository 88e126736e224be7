import SharedCLI
/// The 2-4 examples that end each command's `--help`. Kept in one table (not in each command's
/// spec) so every help text ends the same way and a golden test sees them all.
enum CommandExamples {
    /// The examples for the command `name`, each one a shell line with a `# why` comment.
    static func examples(for name: String) -> [String] {
        table[name] ?? []
    }

    private static let table: [String: [String]] = [
        "report": [
            "qrcheckin report --report-to HTTPS://CHECKIN.EXAMPLE.ORG/C --kiosk-name door-1   # beside 'qrcheckin run'",
            "qrcheckin report -c /etc/qrcheckin/qrcheckin.conf --secret-file hall-1.report-key",
            "qrcheckin status        # its Reporting row: to URL: last ok 12s ago, or why reports fail",
        ],
        "run": [
            "qrcheckin run                                  # venue DEMO on embedded defaults",
            "qrcheckin run --venue HALL-1 --period 30       # another venue, 30 s codes",
            "qrcheckin run -c /etc/qrcheckin/qrcheckin.conf # settings from a file",
        ],
        "status": [
            "qrcheckin status                   # one report; exit 0 running, 1 degraded, 3 not running",
            "qrcheckin status --watch --lang ko # a live countdown in Korean",
            "qrcheckin status --json | jq .secondsLeft",
            "qrcheckin status --all             # every venue on this host, one line each",
        ],
        "ctl": [
            "qrcheckin ctl get --json           # the daemon's live state",
            "qrcheckin ctl shake off            # shakes are ignored from now on",
            "qrcheckin ctl refresh pause        # no code is shown until 'ctl refresh auto'",
            "qrcheckin ctl --venue GATE-1 shake off   # one venue of many (qrcheckin@GATE-1)",
        ],
        "shake": [
            "qrcheckin shake                          # a fresh code now",
            "qrcheckin shake --venue GATE-1           # venue GATE-1's daemon (qrcheckin@GATE-1)",
        ],
        "encode": [
            "qrcheckin encode 'HELLO 안녕'               # terminal text",
            "qrcheckin encode -o hello.png -s 4 HELLO      # a PNG file, 4 pixels a module",
            "qrcheckin encode -t SVG -o - HELLO > hello.svg",
            "echo HELLO | qrcheckin encode -o - | zbarimg -q --raw -",
        ],
        "code": [
            "qrcheckin code --venue HALL-1                  # the code a HALL-1 kiosk shows now",
            "qrcheckin code --venue HALL-1 --at 2026-11-30T09:00:00+09:00 --json",
            "qrcheckin code --secret-file hall-1.key --at @1700000000   # from a venue key",
        ],
        "verify": [
            "qrcheckin verify --venue HALL-1 HTTPS://CHECKIN.EXAMPLE.ORG/C/HALL-1/1AAA...",
            "qrcheckin verify --venue HALL-1 --safe-number 94무31나 --json",
            "qrcheckin verify --secret-file new.secret --secret-file old.secret --stdin   # a co-process",
        ],
        "keygen": [
            "qrcheckin keygen                          # into the state directory",
            "sudo qrcheckin keygen -o /etc/qrcheckin/secret",
            "qrcheckin keygen --venue HALL-1 --from /etc/qrcheckin/secret -o hall-1.key   # a kiosk's key",
            "qrcheckin keygen --report --venue HALL-1 --from hall-1.key -o hall-1.report-key   # its reporter's key",
        ],
        "show": [
            "qrcheckin show                     # the live code full screen; q quits",
            "qrcheckin show --mode utf8 --lang en",
            "qrcheckin show --venue GATE-1      # one venue of many (qrcheckin@GATE-1)",
        ],
    ]
}
