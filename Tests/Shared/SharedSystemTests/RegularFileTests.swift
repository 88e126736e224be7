import Foundation
import Glibc
import SharedSystem
import Testing

@Suite struct RegularFileTests {
    let directory = temporaryDirectory("regular")

    @Test func readsARegularFileAndThroughASymlink() throws {
        try "venue = A\n".write(toFile: directory + "/conf", atomically: false, encoding: .utf8)
        symlink(directory + "/conf", directory + "/link")
        #expect(try TextFile.read(directory + "/conf") == Array("venue = A\n".utf8))
        #expect(try TextFile.read(directory + "/link") == Array("venue = A\n".utf8))
    }

    @Test func refusesAFIFOAtOnceInsteadOfWaitingForAWriter() {
        let path = directory + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        // Before, open(2) blocked here until something opened the FIFO for writing.
        #expect {
            try TextFile.read(path)
        } throws: { error in
            let error = error as! SystemError
            return error.code == EINVAL && error.description == "cannot read \(path): it is a FIFO, not a regular file"
        }
    }

    @Test func refusesDirectoriesAndDevicesAndKeepsENOENTForMissingFiles() {
        #expect(throws: SystemError("read", path: directory, code: EISDIR, detail: "it is a directory, not a regular file")) {
            try TextFile.read(directory)
        }
        #expect(throws: SystemError("read", path: "/dev/null", code: EINVAL, detail: "it is a character device, not a regular file")) {
            try TextFile.read("/dev/null")
        }
        #expect(throws: SystemError("open", path: directory + "/missing", code: ENOENT)) {
            try TextFile.read(directory + "/missing")
        }
    }

    @Test func enforcesTheSizeLimit() throws {
        try String(repeating: "x", count: 100).write(toFile: directory + "/big", atomically: false, encoding: .utf8)
        #expect(throws: SystemError("read", path: directory + "/big", code: EFBIG)) { try TextFile.read(directory + "/big", limit: 99) }
        #expect(try TextFile.read(directory + "/big", limit: 100).count == 100)
    }

    @Test func openReportsTheCheckedStatus() throws {
        try "abc".write(toFile: directory + "/s", atomically: false, encoding: .utf8)
        chmod(directory + "/s", 0o640)
        let file = try RegularFile.open(directory + "/s")
        #expect(file.status.st_mode & 0o777 == 0o640)
        #expect(file.status.st_size == 3)
        #expect(try file.readAll(limit: 10) == Array("abc".utf8))
    }
}
