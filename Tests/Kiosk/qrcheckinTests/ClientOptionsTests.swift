@testable import qrcheckin
import Foundation
import KioskAdapters
import SharedCLI
import Testing

/// Which daemon `status`, `ctl`, `shake` and `show` talk to, from their flags and variables.
@Suite struct ClientOptionsTests {
    private func client(_ words: [String], environment: [String: String] = ["QRCHECKIN_CONFIG": ""],
                        allVenues: Bool = false) throws -> ClientOptions {
        let context = CommandContext(program: "qrcheckin", environment: environment, standardOutputIsTerminal: false)
        return try ClientOptions(ParsedArguments(words, spec: CtlCommand.spec), context: context, allVenues: allVenues)
    }

    @Test func aChosenOutputDirectoryIsTheDaemonsAndCarriesItsSocket() throws {
        let directory = NSTemporaryDirectory() + "qrcheckin-client-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let flagged = try client(["--output-dir", directory])
        #expect(flagged.outputDirectory == directory)
        #expect(flagged.socketPath == directory + "/control.sock")
        #expect(flagged.venues.roots == [VenueDirectories.Root(output: directory, state: nil)])
        let fromVariable = try client([], environment: ["QRCHECKIN_CONFIG": "", "QRCHECKIN_OUTPUT_DIR": directory])
        #expect(fromVariable.outputDirectory == directory, "a variable chooses as a flag does")
    }

    @Test func oneDaemonsFlagsAreRefusedWithManyVenues() {
        expectFailure(.usage, "--all lists every venue; --venue names one: give either") {
            try client(["--venue", "HALL-1"], allVenues: true)
        }
        expectFailure(.usage, "--socket names one daemon; with --venue each venue's socket is OUTPUT/VENUE/control.sock") {
            try client(["--venue", "HALL-1", "--socket", "/s"])
        }
        expectFailure(.usage, "--venue: invalid venue id 'hall 1': use upper case (HALL 1): ids are case-sensitive and URLs stay compact in upper case") {
            try client(["--venue", "hall 1"])
        }
    }
}
