import SharedSystem

extension CommandError {
    /// Maps a secret file failure to its documented exit status: 66 missing or unreadable,
    /// 77 unsafe permissions, another owner or permission denied (the installed service's secret too), 65 bad content, 73 cannot create,
    /// 78 a key of another venue than the configured one.
    public init(_ error: SecretError) {
        let code: ExitCode =
            switch error {
            case .missing, .unreadable, .notRegularFile: .noInput
            case .unsafePermissions, .wrongOwner, .permissionDenied, .serviceSecretUnreadable: .noPermission
            case .empty, .tooShort, .tooLong, .malformed, .venueKeyNotMaster, .reportKeyNotSigningKey: .dataError
            case .wrongVenue: .config
            case .alreadyExists, .cannotCreate, .untrustedDirectory: .cannotCreate
            }
        self.init(code, error.description)
    }
}
