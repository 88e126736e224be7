/// What one client, or all of them, may take from the server: hostile input is cut off here,
/// before the site sees it. docs/SERVER.md ("Security") gives each default its reason.
public struct HTTPServerLimits: Sendable, Equatable {
    /// Connections at once, all clients together.
    public var connections: Int = 1024
    /// Connections at once from one client network (an IPv4 address, an IPv6 /64); 0: no
    /// per-client limit and no fair share either (behind a proxy every connection comes from
    /// the proxy: set 0 there). Once more than half of `connections` are taken, a network may
    /// open another only while it holds less than its fair share (`ConnectionShare`).
    public var connectionsPerClient: Int = 128
    /// The fair share never drops below this many connections per network: a browser opens a
    /// few at once, and a crowd behind one address is many browsers.
    public var fairShareFloor: Int = 4
    /// Seconds an idle connection (no byte in either direction) is kept.
    public var idleSeconds: Int = 10
    /// Seconds a request's head and body may take to arrive, counted from the connection's
    /// accept (or, on a kept-alive connection, from the previous answer): a client trickling
    /// a byte now and then is never idle, so only this ends it (slowloris).
    public var requestSeconds: Int = 10
    /// Bytes of memory libmicrohttpd gives a connection for its request line, headers and
    /// buffers; a head that does not fit gets libmicrohttpd's own 414/431 (docs/SERVER.md).
    public var connectionMemory: Int = 32 * 1024
    /// Bytes of request-target the adapter accepts (longer: 414).
    public var targetBytes: Int = 8 * 1024
    /// Bytes of request line and headers the adapter accepts (more: 431); well below
    /// `connectionMemory`, so that a head too large is answered by the adapter, not the library.
    public var headBytes: Int = 16 * 1024
    /// Bytes of request body accepted (the safe-number and visitor forms are tiny); a larger
    /// declared `Content-Length` is answered 413 before the body is read.
    public var bodyBytes: Int = 8 * 1024
    /// Form fields accepted in one body.
    public var formFields: Int = 16
    /// Threads serving connections (each with its own epoll set); a check-in waiting for its
    /// commit holds none. One per core is enough.
    public var threads: Int = 2

    /// The defaults above.
    public init() {}
}
