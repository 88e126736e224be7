/// Whether a client network may open one more connection: the per-client limit, and once the
/// server is more than half full, a fair share of what is left.
///
/// The first half of the slots is first come, first served (each network up to
/// `connectionsPerClient`), so a server that is not under pressure never refuses anyone for
/// fairness. Past half, a network may take another slot only while it holds fewer than the
/// free slots divided by the networks holding connections (a newcomer counted among them),
/// and never fewer than `fairShareFloor`. A few addresses trickling connections (slowloris)
/// then stop short of filling the server, and every other address still finds free slots. With
/// the defaults, 10 addresses opening connections together hold about 52 each (~520 in all);
/// opening 110 each one after another, the first four keep their 110 (below half) and each
/// later one gets a share of what is left: 756 in all, and 268 slots stay free.
struct ConnectionShare: Sendable {
    /// The limits the rule reads (`connections`, `connectionsPerClient`, `fairShareFloor`).
    let limits: HTTPServerLimits

    /// Whether a network holding `held` connections may open one more, while the server holds
    /// `total` connections from `networks` networks.
    func admits(held: Int, total: Int, networks: Int) -> Bool {
        // No per-client limit (a proxy in front): every connection comes from one address.
        guard limits.connectionsPerClient > 0 else { return true }
        guard held < limits.connectionsPerClient else { return false }
        guard 2 * total >= limits.connections else { return true }
        let sharing = held == 0 ? networks + 1 : networks
        let share = max(limits.fairShareFloor, (limits.connections - total) / max(1, sharing))
        return held < share
    }
}
