import Foundation
import Glibc
import SharedSystem
import Testing

@Suite struct AtomicFileTests {
    let directory: String = {
        let path = testRoot + "/atomic-\(UUID().uuidString)"
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

    /// A character device like /dev/null (major 1, minor 3: `1 << 8 | 3` in Linux's encoding), made in the test's own directory: never the real one.
    private func makeNullDevice(_ name: String) -> String {
        let path = directory + "/" + name
        #expect(mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0, "mknod needs root: \(String(cString: strerror(errno)))")
        return path
    }

    private func type(of path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test func aCharacterDeviceIsNeverReplaced() throws {
        // `encode -o /dev/null` as root renamed a regular file over the device.
        let device = makeNullDevice("null")
        #expect(throws: SystemError("replace", path: device, code: EEXIST,
                                    detail: "it is a character device, not a regular file; refusing to replace it")) {
            try AtomicFile.write(Array("secret".utf8), to: device, mode: 0o600)
        }
        #expect(type(of: device) == S_IFCHR)
        // The user's own output path: written in place, as qrencode does.
        try AtomicFile.write(Array("png".utf8), to: device, existing: .writeSpecialFilesInPlace)
        #expect(type(of: device) == S_IFCHR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["null"], "no temporary left")
        // Not replacing: an existing device is an existing file.
        #expect(throws: SystemError("create", path: device, code: EEXIST)) {
            try AtomicFile.write(Array("x".utf8), to: device, replacing: false, existing: .writeSpecialFilesInPlace)
        }
    }

    @Test func aFIFOIsWrittenInPlaceForItsReader() throws {
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SystemError.self) { try AtomicFile.write(Array("x".utf8), to: fifo) }
        let reader = Glibc.open(fifo, O_RDONLY | O_NONBLOCK)  // a reader, so opening for writing does not wait
        #expect(reader >= 0)
        defer { close(reader) }
        try AtomicFile.write(Array("through the fifo".utf8), to: fifo, existing: .writeSpecialFilesInPlace)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "through the fifo")
        #expect(type(of: fifo) == S_IFIFO)
    }

    @Test func aSymlinkToADeviceIsFollowedOnlyForAUsersOwnOutput() throws {
        // `-o /dev/stdout` is a link to the descriptor: written through; elsewhere the link itself is replaced.
        let device = makeNullDevice("null")
        symlink(device, directory + "/stdout")
        try AtomicFile.write(Array("png".utf8), to: directory + "/stdout", existing: .writeSpecialFilesInPlace)
        #expect(type(of: directory + "/stdout") == S_IFLNK && type(of: device) == S_IFCHR)
        try AtomicFile.write(Array("settings".utf8), to: directory + "/stdout")
        #expect(type(of: directory + "/stdout") == S_IFREG && type(of: device) == S_IFCHR)
    }

    @Test func aSymlinkToARegularFileKeepsTheLinkForAUsersOwnOutput() throws {
        try AtomicFile.write(Array("old".utf8), to: directory + "/real.png")
        symlink(directory + "/real.png", directory + "/link.png")
        try AtomicFile.write(Array("new".utf8), to: directory + "/link.png", existing: .writeSpecialFilesInPlace)
        #expect(type(of: directory + "/link.png") == S_IFLNK)
        #expect(try String(contentsOfFile: directory + "/real.png", encoding: .utf8) == "new")
    }

    @Test func directoriesAndSocketsAreRefusedBeforeAnythingIsWritten() throws {
        try FileManager.default.createDirectory(atPath: directory + "/empty", withIntermediateDirectories: false)
        #expect(throws: SystemError("replace", path: directory + "/empty", code: EISDIR,
                                    detail: "it is a directory, not a regular file; refusing to replace it")) {
            try AtomicFile.write(Array("x".utf8), to: directory + "/empty", existing: .writeSpecialFilesInPlace)
        }
        let socketPath = directory + "/sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(throws: SystemError.self) { try AtomicFile.write(Array("x".utf8), to: socketPath, existing: .writeSpecialFilesInPlace) }
        #expect(type(of: socketPath) == S_IFSOCK)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["empty", "sock"])
    }

    @Test func pathNamesSplitLikeDirnameAndBasename() {
        #expect(PathName.directory(of: "/a/b/c.png") == "/a/b")
        #expect(PathName.directory(of: "c.png") == ".")
        #expect(PathName.directory(of: "/c.png") == "/")
        // At the byte '/', as the kernel splits: even before a combining mark.
        #expect(PathName.directory(of: "/현규/e\u{301}/\u{301}x") == "/현규/e\u{301}")
        #expect(PathName.base(of: "/현규/e\u{301}/\u{301}x") == "\u{301}x")
        #expect(PathName.base(of: "/a/") == "" && PathName.base(of: "name") == "name")
        #expect(PathName.base(of: "/a/b/c.png") == "c.png")
    }
}
