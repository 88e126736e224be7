import Glibc

/// Who is at the keyboard, for the audit trail of staff check-ins: the user of the real uid
/// (`getpwuid`), or, when root runs the command through sudo, the user who ran sudo
/// (`SUDO_USER`, believed only when the real uid is root and it names a real account whose uid
/// is `SUDO_UID`). An unprivileged user cannot pretend to be someone else by setting SUDO_USER.
enum OperatorIdentity {
    /// The operator's user name (`uid 1234` for a uid without an account).
    static func current(environment: [String: String], userID: uid_t = getuid()) -> String {
        if userID == 0, let sudoUser = environment["SUDO_USER"], !sudoUser.isEmpty, sudoUser != "root",
           let account = getpwnam(sudoUser), environment["SUDO_UID"].map({ $0 == String(account.pointee.pw_uid) }) ?? true {
            return sudoUser
        }
        guard let account = getpwuid(userID), let name = account.pointee.pw_name else { return "uid \(userID)" }
        return String(cString: name)
    }
}
