import ServerLedgerContract
import ServerDomain
import ServerReports
import SharedDomain
import SharedJSON
import Testing

/// A zone at a fixed offset.
struct FixedZone: LocalTimeZone {
    let seconds: Int
    func offsetSeconds(at time: WallTime) -> Int { seconds }
}

/// A zone whose offset changes at one moment (a DST switch).
struct SwitchingZone: LocalTimeZone {
    let at: WallTime
    let before: Int
    let after: Int
    func offsetSeconds(at time: WallTime) -> Int { time < at ? before : after }
}

/// Every field of a check-in in each format, as the operators' scripts and spreadsheets read them.
struct CheckInExportTests {
    static let hall = try! VenueID("HALL-1")
    /// 2026-11-30T09:00:05.120Z.
    static let time = WallTime(milliseconds: 1_796_029_205_120)

    static func checkIn(name: String? = "김민지, \"Kim\"", phone: String? = "010-1234-5678", operatorName: String? = nil,
                        device: String? = "Zq3v-0p_X", age: Int? = -1, method: CheckInMethod = .safeNumber) -> CheckIn {
        CheckIn(id: 42, entry: NewCheckIn(venue: hall, time: time, method: method, windowAge: age, device: device.flatMap(DeviceID.init),
                                          visitor: name == nil && phone == nil ? nil : Visitor(name: name, phone: phone),
                                          operatorName: operatorName))
    }

    @Test func csvHasEveryFieldQuotedByRFC4180() async {
        var export = CheckInExport(format: .csv, zone: FixedZone(seconds: 9 * 3600))
        #expect(export.header == "id,venue,time,local_time,method,window_age,device,name,phone,operator,exit,exit_kind,stay_seconds\r\n")
        #expect(export.line(await Self.checkIn())
                == "42,HALL-1,2026-11-30T09:00:05.120Z,2026-11-30T18:00:05+09:00,safe-number,-1,Zq3v-0p_X,\"김민지, \"\"Kim\"\"\",01012345678,,,,\r\n")
        #expect(export.line(await Self.checkIn(name: nil, phone: nil, operatorName: "door", device: nil, age: nil, method: .staff))
                == "42,HALL-1,2026-11-30T09:00:05.120Z,2026-11-30T18:00:05+09:00,staff,,,,,door,,,\r\n")
        #expect(export.line(await Self.checkIn(name: "line\nbreak", phone: nil)).contains(",line\\nbreak,,"), "a line break is written as \\n")
    }

    @Test func anExitCarriesItsTimeKindAndStay() async {
        var export = CheckInExport(format: .csv, zone: FixedZone(seconds: 9 * 3600))
        let visit = await Self.checkIn(name: nil, phone: nil)
        let ended = visit.ended(VisitExit(time: WallTime(milliseconds: visit.time.milliseconds + 5_820_000), kind: .kiosk))
        #expect(export.line(ended).hasSuffix(",2026-11-30T10:37:05.120Z,kiosk,5820\r\n"))
    }

    @Test func namesThatASpreadsheetWouldRunAsFormulasAreDefused() async {
        var export = CheckInExport(format: .csv, zone: FixedZone(seconds: 0))
        for (name, written) in [("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""), ("+1", "'+1"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"),
                                ("Lee", "Lee"), ("a=b", "a=b")] {
            #expect(export.line(await Self.checkIn(name: name, phone: nil)).contains(",\(written),"), "\(name)")
        }
        #expect(export.line(await Self.checkIn(name: nil, phone: nil, operatorName: "=cmd", device: nil)).hasSuffix(",'=cmd,,,\r\n"))
        // Every text cell, not only names: a device id may begin with '-' as a venue may.
        #expect(export.line(await Self.checkIn(device: "-1")).contains(",'-1,"))
        let venue = CheckIn(id: 7, entry: NewCheckIn(venue: try! VenueID("-HALL"), time: Self.time, method: .qr, windowAge: -1, device: nil))
        #expect(export.line(venue).hasPrefix("7,'-HALL,"))
        #expect(export.line(venue).contains(",qr,-1,"), "numbers are numbers: a window age of -1 stays -1")
    }

    /// Full-width and small forms of = + - @ (what an East Asian keyboard types, and what
    /// spreadsheets fold to ASCII) are formula starts too: each gets the leading `'`, in the
    /// plain CSV and in Excel's, in every CSV an operator exports (the log, the roll, the audit log).
    @Test(arguments: ["\u{FF1D}HYPERLINK(\"x\")", "\u{FF0D}2", "\u{FF20}SUM(A1)", "\u{FF0B}1", "\u{FE66}1", "\u{FE62}1", "\u{FE63}1", "\u{FE6B}A1"])
    func unicodeFormulaStartsAreDefusedToo(_ name: String) async {
        for excel in [false, true] {
            var export = CheckInExport(format: .csv, excel: excel, zone: FixedZone(seconds: 0))
            let line = export.line(await Self.checkIn(name: name, phone: nil, operatorName: name))
            let field = name.contains("\"") ? "\"'" + name.replacing("\"", with: "\"\"") + "\"" : "'" + name
            #expect(line.contains(",\(field),,\(field),") && !line.contains(",\(name)"), "\(Quoted(name)) excel \(excel): \(Quoted(line))")
        }
        var roll = VisitReport(format: .csv, overlaps: false, zone: FixedZone(seconds: 0), now: Self.time)
        var rows: [UInt8] = []
        roll.write(VisitReport.Row(visit: await Self.checkIn(name: name, phone: nil)), to: &rows)
        let rollLine = String(decoding: rows, as: UTF8.self)
        #expect(rollLine.contains(",'") || rollLine.contains(",\"'"), "the roll's CSV: \(Quoted(rollLine))")
        var audit = AuditExport(format: .csv, zone: FixedZone(seconds: 0))
        var entry: [UInt8] = []
        audit.write(AuditEntry(id: 1, time: Self.time, actor: name, action: .export), to: &entry)
        #expect(!String(decoding: entry, as: UTF8.self).contains(",\(name)"), "the audit log's CSV")
    }

    @Test func aFullWidthCharacterInsideANameIsNoFormula() async {
        var export = CheckInExport(format: .csv, zone: FixedZone(seconds: 0))
        #expect(export.line(await Self.checkIn(name: "김\u{FF1D}민지", phone: nil)).contains(",김\u{FF1D}민지,"))
        #expect(export.line(await Self.checkIn(name: "Ｌｅｅ", phone: nil)).contains(",Ｌｅｅ,"), "full-width letters start no formula")
    }

    /// Stored text an attacker chose (the visitor cookie was not checked before issue 30):
    /// escape sequences, NUL, BEL, CR, C1 controls and bidirectional overrides. No format
    /// writes one raw; JSON keeps the exact text, escaped.
    @Test(arguments: ["\u{1B}[2J\u{1B}]0;owned\u{07}", "a\u{0}b", "bell\u{07}", "over\rwrite", "\u{202E}gnp.exe",
                      "csi\u{9B}31m", "del\u{7F}", "iso\u{2066}late\u{2069}", "\u{1B}=HYPERLINK(1)"])
    func controlCharactersNeverLeaveRaw(_ name: String) async throws {
        let checkIn = await Self.checkIn(name: name, phone: nil, operatorName: name)
        for format in CheckInExport.Format.allCases {
            var export = CheckInExport(format: format, zone: FixedZone(seconds: 0))
            let line = export.line(checkIn)
            let lineEnd = format == .csv ? "\r\n" : "\n"
            #expect(line.hasSuffix(lineEnd) && !line.dropLast(lineEnd.unicodeScalars.count).unicodeScalars.contains(where: Quoted.isTerminalControl),
                    "\(format): \(Quoted(line))")
            if format == .jsonl {
                #expect(try await JSONParser.parse(String(line.dropLast()))["name"]?.string == name, "JSON keeps the exact name")
            } else {
                #expect(line.contains(Quoted.escaping(name, only: Quoted.isTerminalControl)), "\(format): shown escaped, \(Quoted(line))")
            }
        }
        var csv = CheckInExport(format: .csv, zone: FixedZone(seconds: 0))
        #expect(!csv.line(checkIn).contains(",'"), "an escaped name starts with a backslash, not a formula")
        var table = CheckInExport(format: .table, zone: FixedZone(seconds: 0))
        #expect(table.line(checkIn).filter { $0 == "\n" }.count == 1, "one line per check-in")
    }

    @Test func jsonLinesCarryTheSameFieldsAndParse() async throws {
        var export = CheckInExport(format: .jsonl, zone: FixedZone(seconds: -(3 * 3600 + 1800)))
        #expect(export.header == "")
        let line = export.line(await Self.checkIn(name: "Tab\there"))
        #expect(line.hasSuffix("}\n") && !line.dropLast().contains("\n"))
        let fields = try await JSONParser.parse(String(line.dropLast()))
        guard case .object(let members) = fields else { Issue.record("not an object: \(line)"); return }
        #expect(members.map { $0.0 } == CheckInExport.columns)
        #expect(fields["id"]?.integer == 42 && fields["venue"]?.string == "HALL-1")
        #expect(fields["time"]?.string == "2026-11-30T09:00:05.120Z")
        #expect(fields["local_time"]?.string == "2026-11-30T05:30:05-03:30")
        #expect(fields["method"]?.string == "safe-number" && fields["window_age"]?.integer == -1)
        #expect(fields["device"]?.string == "Zq3v-0p_X" && fields["name"]?.string == "Tab\there" && fields["phone"]?.string == "01012345678")
        #expect(fields["operator"] == .null)
        #expect(fields["exit"] == .null && fields["exit_kind"] == .null && fields["stay_seconds"] == .null, "an open visit has no exit")
    }

    @Test func localTimesFollowTheZoneAcrossAChange() async {
        let change = WallTime(milliseconds: Self.time.milliseconds + 1_000)
        var export = CheckInExport(format: .csv, zone: SwitchingZone(at: change, before: 3600, after: 7200))
        #expect(export.line(await Self.checkIn()).contains(",2026-11-30T10:00:05+01:00,"))
        let later = CheckIn(id: 43, entry: NewCheckIn(venue: Self.hall, time: WallTime(milliseconds: change.milliseconds + 900_000),
                                                      method: .qr, windowAge: 0, device: nil))
        #expect(export.line(later).contains(",2026-11-30T11:15:06+02:00,"), "the next quarter hour asks the zone again")
    }

    @Test func aTableLinesUpAndShowsOneLinePerCheckIn() async {
        var export = CheckInExport(format: .table, zone: FixedZone(seconds: 9 * 3600))
        let line = export.line(await Self.checkIn(name: "김민지\n2"))
        #expect(line.hasPrefix("42              HALL-1           2026-11-30 18:00:05 safe-number -1  Zq3v-0p_X        김민지\\n2"), "16 characters of the device id (DeviceID.shown)")
        #expect(line.filter { $0 == "\n" }.count == 1)
    }
}
