import SharedCLI

extension SettingKey {
    /// A qrcheckin-server setting, its variable `QRCHECKIN_SERVER_NAME`.
    init(server name: String, value: String, help: String, scoped: Bool = false) {
        self.init(name: name, value: value, help: help, environmentPrefix: "QRCHECKIN_SERVER_", scoped: scoped)
    }
}

extension SettingCatalog {
    /// Every server setting, in `--help` order; those marked scoped may be set per venue in a
    /// config file (`duplicate-time.HALL-1 = 1h`).
    static let server = SettingCatalog(keys: [
        SettingKey(server: "listen", value: "ADDRESS", help: "HOST:PORT to listen on, numeric (default 127.0.0.1:8080); ignored under socket activation."),
        SettingKey(server: "admin-listen", value: "ADDRESS", help: "HOST:PORT of the operator console, numeric (default 127.0.0.1:8081); none: no console."),
        SettingKey(server: "database", value: "URL", help: "sqlite:PATH (default sqlite:STATE/checkins.db; see FILES), or postgresql://… shared by several servers."),
        SettingKey(server: "durability", value: "full|normal", help: "Commit until fsync (full, default) or until in the WAL (normal); SQLite only."),
        SettingKey(server: "database-pool", value: "N", help: "PostgreSQL connections this server keeps open at most, 1-1000 (default 16)."),
        SettingKey(server: "secret-file", value: "FILE", help: "Master secret or venue key; the setting takes FILE:FILE… (default: as qrcheckin)."),
        SettingKey(server: "state-dir", value: "DIR", help: "qrcheckin's state directory, whose secret serves without secret-file (as run --state-dir; default $QRCHECKIN_STATE_DIR, else qrcheckin's)."),
        SettingKey(server: "base-path", value: "PATH", help: "Path of the check-in URLs before /VENUE/TOKEN (default /C)."),
        SettingKey(server: "venues", value: "LIST", help: "Only these venues, comma-separated (default: every venue a key serves)."),
        SettingKey(server: "name", value: "TEXT", help: "The venue's name on pages (per venue: name.HALL-1 = 대강당).", scoped: true),
        SettingKey(server: "accent", value: "#RRGGBB", help: "The colour of the top edge of the venue's pages (per venue: accent.HALL-1 = #0a7d32).", scoped: true),
        SettingKey(server: "logo", value: "FILE", help: "A PNG, SVG, JPEG or WebP of at most 256 KiB shown beside the venue's name (per venue: logo.HALL-1).", scoped: true),
        SettingKey(server: "period", value: "SECONDS", help: "Rotation period of the codes, as the kiosks' (default 15).", scoped: true),
        SettingKey(server: "skew", value: "WINDOWS", help: "Windows accepted either side of now, 0-60 (default 1).", scoped: true),
        SettingKey(server: "duplicate-time", value: "DURATION", help: "A device's scans within this are one check-in: 90s, 30m, 3h (default 3h).", scoped: true),
        SettingKey(server: "visitor-fields", value: "FIELDS", help: "Visitor log fields to ask once per device: none, name, phone, name,phone (default none).", scoped: true),
        SettingKey(server: "time-zone", value: "ZONE", help: "Zone of the pages' and outputs' local times, named on the receipt: Asia/Seoul (default: the host's)."),
        SettingKey(server: "receipt-freshness", value: "DURATION", help: "A receipt is green and moving this long, then aged: 90s, 10m, 1h (default 10m)."),
        SettingKey(server: "controller", value: "TEXT", help: "Who keeps the visitor log, named in the visitor form's privacy notice (default the venue's name)."),
        SettingKey(server: "capacity", value: "N", help: "Visits inside at most; then a scan gets the full page (per venue: capacity.HALL-1 = 40; default none).", scoped: true),
        SettingKey(server: "exit", value: "VENUE", help: "Per venue only: exit.HALL-1-OUT = HALL-1 makes HALL-1-OUT's codes record exits from HALL-1.", scoped: true),
        SettingKey(server: "max-stay", value: "DURATION", help: "A visit with no exit ends this long after its entry: 4h (default: duplicate-time).", scoped: true),
        SettingKey(server: "close-at", value: "HH:MM", help: "Every open visit ends at this local time each day: 23:00 (default none).", scoped: true),
        SettingKey(server: "occupancy-origins", value: "LIST", help: "Origins whose pages may read BASE/VENUE/occupancy (CORS), comma-separated (default none)."),
        SettingKey(server: "trusted-proxy", value: "LIST", help: "Proxies whose X-Forwarded-For/-Proto count: addresses or CIDR, comma-separated."),
        SettingKey(server: "max-connections", value: "N", help: "Connections at once, 1-100000 (default 1024)."),
        SettingKey(server: "max-connections-per-client", value: "N", help: "Connections at once from one address (IPv6: one /64), 0 (no limit)-100000 (default 128)."),
        SettingKey(server: "request-timeout", value: "SECONDS", help: "A request's head and body must arrive within this, 1-600 (default 10); then its connection is closed."),
        SettingKey(server: "threads", value: "N", help: "Threads serving connections, 1-64 (default: one per core, at least 2)."),
        SettingKey(server: "retention", value: "PERIOD", help: "Keep check-ins (devices, visitor fields) this long: 28d (default), 4w, 36h; then deleted."),
        SettingKey(server: "refusal-retention", value: "PERIOD", help: "Keep refused scans this long, at most retention (default 7d)."),
        SettingKey(server: "audit-retention", value: "PERIOD", help: "Keep the audit log (who exported, erased, queried) this long (default 365d)."),
        SettingKey(server: "keep-counts", value: "yes|no", help: "Keep per-day counts per venue of deleted check-ins (default yes)."),
        SettingKey(server: "safe-number-tries", value: "N", help: "Wrong safe numbers a phone may type before 429, 1-100 (default 5); one more a minute."),
        SettingKey(server: "new-devices-per-network", value: "N", help: "New phones one address (IPv6: /64) may check in at once, then N/2 a minute (default 60; 0: no limit)."),
        SettingKey(server: "new-devices-per-code", value: "N", help: "New phones one code (a venue's window) may check in (default 100; 0: no limit)."),
        SettingKey(server: "new-devices-per-hour", value: "N", help: "New phones a venue takes an hour, all addresses together (default 1000; 0: no limit).", scoped: true),
    ], configVariable: "QRCHECKIN_SERVER_CONFIG")
}
