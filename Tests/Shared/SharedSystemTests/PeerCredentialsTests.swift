import SharedSystem
import Testing

@Suite struct PeerCredentialsTests {
    let ops: UInt32 = 4242

    @Test func rootAndTheDaemonsOwnUserAreAllowed() {
        #expect(PeerCredentials(pid: 1, uid: 0, gid: 0, groups: []).isAllowed(ownUID: 999, group: nil))
        #expect(PeerCredentials(pid: 1, uid: 999, gid: 5, groups: []).isAllowed(ownUID: 999, group: nil))
        #expect(!PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: []).isAllowed(ownUID: 999, group: nil))
    }

    @Test func theGroupCountsOnlyAsTheKernelReportsIt() {
        // A supplementary group the process holds (setpriv --groups): a member.
        #expect(PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [7, ops]).isAllowed(ownUID: 999, group: ops))
        // The primary group: a member too.
        #expect(PeerCredentials(pid: 1, uid: 1000, gid: ops, groups: []).isAllowed(ownUID: 999, group: ops))
        // Neither: not a member, whatever /etc/group lists for uid 1000.
        #expect(!PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [7]).isAllowed(ownUID: 999, group: ops))
    }
}
