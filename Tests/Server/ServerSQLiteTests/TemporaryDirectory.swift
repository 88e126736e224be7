import Glibc

/// A fresh directory under /tmp, removed with everything in it when the value goes away.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        var template = Array("/tmp/qrcheckin-sqlite-test.XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }

    /// The path of `name` inside.
    func file(_ name: String) -> String { path + "/" + name }
}
