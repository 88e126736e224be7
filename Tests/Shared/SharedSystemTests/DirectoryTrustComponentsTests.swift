@testable import SharedSystem
import Testing

@Suite struct DirectoryTrustComponentsTests {
    @Test(arguments: [
        ("/run/qrcheckin", ["run", "qrcheckin"]), ("//a///b/", ["a", "b"]), ("/./a/./b/.", ["a", "b"]),
        ("/a/../b", ["a", "..", "b"]), ("/", []), ("", []), ("/.hidden/..x/...", [".hidden", "..x", "..."]),
        ("/현규/디렉터리", ["현규", "디렉터리"]), ("/e\u{301}/\u{301}x", ["e\u{301}", "\u{301}x"]),
    ])
    func namesAreWhatTheKernelSplitsAtSlashes(path: String, names: [String]) {
        #expect(DirectoryTrust.components(path) == names)
    }
}
