import Foundation
import Glibc
import SharedSystem
import Testing

/// The directory-trust rule (docs/STATE.md, "Directory trust"): its decisions on their own, then
/// the walk on real directories, links and owners.
@Suite final class DirectoryTrustTests {
    /// A caller that is neither root nor anyone these tests make files for.
    let caller = DirectoryTrust(uid: 4242, gid: 4343)

    private func directory(uid: uid_t = 0, gid: gid_t = 0, _ mode: mode_t) -> DirectoryTrust.Entry {
        DirectoryTrust.Entry(uid: uid, gid: gid, mode: S_IFDIR | mode)
    }

    @Test func aDirectoryOthersMayWriteIsRefusedAndAStickyOneOnlyOnTheWay() {
        #expect(caller.writersProblem(directory(0o777), subject: "it", isFinal: true) == "anyone may write to it (mode 0777)")
        #expect(caller.writersProblem(directory(0o1777), subject: "/tmp", isFinal: false) == nil)
        #expect(caller.writersProblem(directory(0o1777), subject: "it", isFinal: true) == "anyone may write to it (mode 1777)")
        #expect(caller.writersProblem(directory(0o777), subject: "/srv", isFinal: false) == "anyone may write to /srv (mode 0777)")
        #expect(caller.writersProblem(directory(0o755), subject: "it", isFinal: true) == nil)
    }

    @Test func aGroupMayWriteOnlyWhenItIsRootsOrTheCallersOwn() {
        #expect(caller.writersProblem(directory(gid: 0, 0o775), subject: "it", isFinal: true) == nil)
        #expect(caller.writersProblem(directory(gid: 4343, 0o775), subject: "it", isFinal: true) == nil)
        let problem = caller.writersProblem(directory(gid: 4444, 0o770), subject: "it", isFinal: true)
        #expect(problem == "members of group \(GroupDatabase.describe(4444)) may write to it (mode 0770)")
    }

    @Test func inASharedDirectoryOnlyEntriesOfTrustedOwnersCount() {
        let tmp = directory(0o1777)
        let planted = directory(uid: 1001, 0o755)
        let problem = caller.placementProblem(planted, subject: "it", parent: tmp, parentName: "/tmp", owners: caller.initialOwners)
        #expect(problem == "it belongs to \(UserDatabase.describe(1001)), not to you or root, and anyone may create entries in /tmp (mode 1777)")
        let link = DirectoryTrust.Entry(uid: 1001, gid: 1001, mode: S_IFLNK | 0o777)
        #expect(caller.placementProblem(link, subject: "/tmp/x", parent: tmp, parentName: "/tmp", owners: caller.initialOwners)?
            .hasPrefix("/tmp/x is a symbolic link made by \(UserDatabase.describe(1001))") == true)
        #expect(caller.placementProblem(directory(uid: 4242, 0o700), subject: "it", parent: tmp, parentName: "/tmp", owners: caller.initialOwners) == nil)
        // Outside shared directories only trusted users could have put it there, whoever owns it
        // (systemd gives root's /run/qrcheckin to the service's dynamic user).
        #expect(caller.placementProblem(planted, subject: "it", parent: directory(0o755), parentName: "/run", owners: caller.initialOwners) == nil)
    }

    @Test func theDaemonPublishesOnlyInItsOwnOrRootsDirectory() {
        #expect(caller.ownerProblem(directory(uid: 1001, 0o755), subject: "it", use: .publishing)
            == "it belongs to \(UserDatabase.describe(1001)), not to this user or root")
        #expect(caller.ownerProblem(directory(uid: 1001, 0o755), subject: "it", use: .reading) == nil)
        #expect(caller.ownerProblem(directory(uid: 4242, 0o755), subject: "it", use: .publishing) == nil)
        #expect(caller.ownerProblem(directory(uid: 0, 0o755), subject: "it", use: .publishing) == nil)
    }

    // MARK: - The walk, on real directories

    let base = temporaryDirectory("trust")
    let trust = DirectoryTrust()

    deinit {
        try? FileManager.default.removeItem(atPath: base)
    }

    private func make(_ path: String, _ mode: mode_t) {
        precondition(mkdir(path, mode) == 0 && chmod(path, mode) == 0, "mkdir \(path): \(errno)")
    }

    private func refusal(_ path: String, for use: DirectoryTrust.Use = .publishing) -> String? {
        do {
            _ = try trust.open(path, for: use)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func missingDirectoriesAreMadeWithExactModesAndHeldOpen() throws {
        // 0775 (group = this process's own, so trusted): the umask's 022 must not narrow it.
        let held = try trust.open(base + "/a/b/out", for: .publishing, creating: 0o775)
        var status = stat()
        #expect(stat(base + "/a/b/out", &status) == 0 && status.st_mode & 0o7777 == 0o775)
        #expect(stat(base + "/a", &status) == 0 && status.st_mode & 0o7777 == 0o755)
        #expect(TrustedDirectory.Identity(status) != held.identity)
        #expect(stat(base + "/a/b/out", &status) == 0 && TrustedDirectory.Identity(status) == held.identity)
        // The handle follows the directory, not the name.
        #expect(rename(base + "/a/b/out", base + "/a/b/moved") == 0)
        #expect(TrustedDirectory.Identity(try #require(held.status(of: "."))) == held.identity)
    }

    @Test func missingWithoutCreatingIsMissingAndAFileInTheWayIsNamed() {
        #expect(refusal(base + "/none/out") == "\(base)/none/out does not exist")
        FileManager.default.createFile(atPath: base + "/file", contents: Data())
        #expect(refusal(base + "/file/out") == "refusing to use \(base)/file/out: \(base)/file is a regular file, not a directory")
    }

    @Test func aDirectoryAnyoneMayWriteToIsRefusedOnTheWayAndAtTheEnd() {
        make(base + "/open", 0o777)
        make(base + "/open/out", 0o755)
        #expect(refusal(base + "/open") == "refusing to use \(base)/open: anyone may write to it (mode 0777)")
        #expect(refusal(base + "/open/out") == "refusing to use \(base)/open/out: anyone may write to \(base)/open (mode 0777)")
        make(base + "/sticky", 0o1777)
        make(base + "/sticky/mine", 0o755)
        #expect(refusal(base + "/sticky/mine") == nil, "a sticky directory on the way is fine when what is in it is ours")
    }

    @Test func aLinkIsFollowedAndItsTargetChecked() throws {
        make(base + "/target", 0o755)
        #expect(symlink("target", base + "/link") == 0)
        let held = try trust.open(base + "/link", for: .publishing)
        var status = stat()
        #expect(stat(base + "/target", &status) == 0 && TrustedDirectory.Identity(status) == held.identity)
        #expect(held.path == base + "/link" && held.resolvedPath == base + "/target")
        make(base + "/loose", 0o777)
        #expect(symlink(base + "/loose", base + "/to-loose") == 0)
        #expect(refusal(base + "/to-loose") == "refusing to use \(base)/to-loose: anyone may write to \(base)/loose (mode 0777)")
        #expect(symlink("loop", base + "/loop") == 0)
        #expect(refusal(base + "/loop") == "cannot follow \(base)/loop: Too many levels of symbolic links")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give directories and links to another user"))
    func whatAnotherUserPlantedInASharedDirectoryIsRefusedNamingTheOwner() {
        make(base + "/tmp", 0o1777)
        make(base + "/tmp/qrcheckin-0", 0o755)
        #expect(chown(base + "/tmp/qrcheckin-0", 65534, 65534) == 0)
        let owner = UserDatabase.describe(65534)
        #expect(refusal(base + "/tmp/qrcheckin-0", for: .reading) == "refusing to use \(base)/tmp/qrcheckin-0: it belongs to \(owner), "
            + "not to you or root, and anyone may create entries in \(base)/tmp (mode 1777)")
        make(base + "/elsewhere", 0o755)
        #expect(symlink(base + "/elsewhere", base + "/tmp/link") == 0 && lchown(base + "/tmp/link", 65534, 65534) == 0)
        #expect(refusal(base + "/tmp/link", for: .reading)?.contains("it is a symbolic link made by \(owner)") == true)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to make another user's directory"))
    func anotherUsersDirectoryMayBeReadWhereOnlyRootCouldHaveGivenItButNotPublishedIn() {
        make(base + "/run", 0o755)
        make(base + "/run/qrcheckin", 0o755)
        #expect(chown(base + "/run/qrcheckin", 65534, 65534) == 0)
        #expect(refusal(base + "/run/qrcheckin", for: .reading) == nil)
        #expect(refusal(base + "/run/qrcheckin", for: .publishing)
            == "refusing to use \(base)/run/qrcheckin: it belongs to \(UserDatabase.describe(65534)), not to this user or root")
        // Below it, that user decides; a directory it lets anyone write is still refused.
        make(base + "/run/qrcheckin/GATE-1", 0o777)
        #expect(refusal(base + "/run/qrcheckin/GATE-1", for: .reading)?.hasSuffix("anyone may write to it (mode 0777)") == true)
    }

    @Test func aStateDirectoryShapedAsSystemdMakesItForADynamicUserIsAccepted() throws {
        // /var/lib/qrcheckin -> private/qrcheckin, /var/lib/private 0700 root, and for the template
        // unit /var/lib/qrcheckin/GATE-1 -> ../private/qrcheckin/GATE-1.
        make(base + "/lib", 0o755)
        make(base + "/lib/private", 0o700)
        make(base + "/lib/private/qrcheckin", 0o700)
        #expect(symlink("private/qrcheckin", base + "/lib/qrcheckin") == 0)
        let single = try trust.open(base + "/lib/qrcheckin", for: .publishing)
        var status = stat()
        #expect(stat(base + "/lib/private/qrcheckin", &status) == 0 && TrustedDirectory.Identity(status) == single.identity)
        // Where the walk reached it, for SQLite's no-follow open (the server's ledger).
        #expect(single.resolvedPath == base + "/lib/private/qrcheckin")

        make(base + "/lib/private/venues", 0o755)
        make(base + "/lib/private/venues/GATE-1", 0o700)
        make(base + "/lib/venues", 0o755)
        #expect(symlink("../private/venues/GATE-1", base + "/lib/venues/GATE-1") == 0)
        let venue = try trust.open(base + "/lib/venues/GATE-1", for: .publishing)
        #expect(stat(base + "/lib/private/venues/GATE-1", &status) == 0 && TrustedDirectory.Identity(status) == venue.identity)
        #expect(venue.resolvedPath == base + "/lib/private/venues/GATE-1")
    }
}
