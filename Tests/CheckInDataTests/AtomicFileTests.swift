import CheckInData
import Foundation
import Testing

@Suite struct AtomicFileTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "atomic-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test func replacesTheFileAndLeavesNoTemporary() throws {
        let path = directory + "/current.json"
        try AtomicFile.write("old", to: path)
        try AtomicFile.write("new", to: path, mode: 0o640)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["current.json"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    @Test func aFailedRenameRemovesTheTemporaryAndKeepsWhatWasThere() throws {
        // Renaming a file over a non-empty directory fails, even for root.
        let path = directory + "/busy"
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        #expect(throws: SystemError.self) { try AtomicFile.write("new", to: path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["busy"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["inside"])
    }

    @Test func aNameNearTheFileSystemLimitCanBeWritten() throws {
        // 255 bytes is NAME_MAX; the temporary name must not exceed it.
        for name in [String(repeating: "a", count: 255), String(repeating: "가", count: 85)] {
            try AtomicFile.write("new", to: directory + "/" + name)
            #expect(try String(contentsOfFile: directory + "/" + name, encoding: .utf8) == "new")
            try FileManager.default.removeItem(atPath: directory + "/" + name)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }

    @Test func aMissingDirectoryIsReportedWithTheRequestedPath() {
        do {
            try AtomicFile.write("x", to: directory + "/missing/out.png")
            Issue.record("expected a failure")
        } catch {
            #expect(error.path == directory + "/missing/out.png")
            #expect(error.description.hasSuffix("No such file or directory"))
        }
    }

    @Test func pathNamesSplitLikeDirnameAndBasename() {
        #expect(PathName.directory(of: "/a/b/c.png") == "/a/b")
        #expect(PathName.directory(of: "c.png") == ".")
        #expect(PathName.directory(of: "/c.png") == "/")
        #expect(PathName.base(of: "/a/b/c.png") == "c.png")
    }
}
