import Foundation

/// The sign-in keys: each method's own keys checked up front, other methods' keys reported as mistakes.
extension SettingsReader {
    /// Keys that only one method reads; the old sample's `scopes` and `redirectUri` are left out on purpose,
    /// because old plists carry them whatever the method.
    private static let methodSpecificKeys: [SettingsKey] = [
        .clientSecretFile, .certificateFile, .privateKeyFile, .assertionAlgorithm, .federatedTokenFile,
    ]

    /// Validates the keys of `method` and returns its options.
    func signInOptions(for method: AuthMethod) throws(ConfigError) -> SignInOptions {
        for key in Self.methodSpecificKeys where values[key.rawValue] != nil && !method.ownKeys.contains(key) {
            let owner = AuthMethod.allCases.first { $0.ownKeys.contains(key) }?.rawValue ?? "another method"
            throw .invalidValue(
                path: path, key: key.rawValue,
                reason: "only used when auth is \(owner), but auth is \(method.rawValue); remove the key or set auth")
        }
        var options = SignInOptions()
        switch method {
        case .certificate:
            guard let certificate = try existingFile(.certificateFile) else {
                throw .missingKey(
                    path: path, key: SettingsKey.certificateFile.rawValue,
                    expected: SettingsKey.certificateFile.expected + " (auth is certificate)")
            }
            options.certificateFile = certificate
            options.privateKeyFile = try existingFile(.privateKeyFile)
            options.assertionAlgorithm = try enumeration(.assertionAlgorithm, AssertionAlgorithm.self) ?? .ps256
        case .federatedToken:
            // Without the key, the AZURE_FEDERATED_TOKEN_FILE variable is read at sign-in time.
            options.federatedTokenFile = try file(.federatedTokenFile)
        case .browser:
            try validateRedirect()
            try validateDelegatedScopes()
        case .deviceCode:
            try validateDelegatedScopes()
        case .clientSecret:
            break
        }
        return options
    }

    /// A path key whose file must exist now, so a typo is reported before any network request.
    private func existingFile(_ key: SettingsKey) throws(ConfigError) -> URL? {
        guard let url = try file(key) else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw .invalidValue(
                path: path, key: key.rawValue, reason: "no such file \(url.path); expected \(key.expected)")
        }
        return url
    }

    /// A delegated sign-in is only kept through its refresh token, which needs `offline_access`.
    private func validateDelegatedScopes() throws(ConfigError) {
        guard values[SettingsKey.scopes.rawValue] != nil else { return }
        let scopes = try scopeList() ?? []
        guard scopes.contains(where: { $0.lowercased() == "offline_access" }) else {
            throw .invalidValue(
                path: path, key: SettingsKey.scopes.rawValue,
                reason: "must include offline_access, or the sign-in cannot be kept for later builds "
                    + "(got '\(scopes.joined(separator: " "))')")
        }
    }

    /// Browser sign-in listens on loopback, so a configured redirect must be a loopback http URL.
    private func validateRedirect() throws(ConfigError) {
        guard let text = try string(.redirectUri), !text.isEmpty else { return }
        guard let url = URL(string: text), url.scheme?.lowercased() == "http", let host = url.host,
            LoopbackHost.isLoopback(host), url.query == nil, url.fragment == nil
        else {
            throw .invalidValue(
                path: path, key: SettingsKey.redirectUri.rawValue,
                reason: "'\(text)' cannot receive a browser sign-in; expected \(SettingsKey.redirectUri.expected)")
        }
    }
}
