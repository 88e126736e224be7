/// The control socket's reply to a request that gets no state: `{"ok":false,"code":CODE,
/// "error":MESSAGE}`. One writer for both that answer so: the socket itself (busy,
/// permission-denied, too long, timed out) and the daemon (bad-request, stopping).
public enum ControlErrorReply {
    /// The reply line (without its newline); `code` is the stable word scripts read.
    public static func text(_ message: String, code: String = "bad-request") -> String {
        JSONValue.object([("ok", .bool(false)), ("code", .string(code)), ("error", .string(message))]).serialized
    }
}
