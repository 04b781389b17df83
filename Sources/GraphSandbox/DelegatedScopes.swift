/// Scope checks for delegated sign-in: OpenID scopes plus permissions of one resource, this sandbox
/// (its URL, `http://localhost:PORT`, Graph's app id, or bare names such as `User.Read.All`).
struct DelegatedScopes: Sendable {
    static let openIDScopes: Set<String> = ["openid", "profile", "email", "offline_access"]
    /// Lowercased resource identifiers that mean this sandbox.
    let resources: Set<String>

    /// The scopes as a list, or the identity platform's error for a missing or foreign scope.
    func validate(_ text: String?) -> Result<[String], IdentityError> {
        let scopes = (text ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        guard !scopes.isEmpty else { return .failure(.missingParameter("scope")) }
        for scope in scopes where !Self.openIDScopes.contains(scope.lowercased()) {
            guard let slash = scope.lastIndex(of: "/") else { continue }
            let resource = String(scope[..<slash]).lowercased()
            if !resources.contains(resource) {
                return .failure(
                    IdentityError(
                        status: 400, error: "invalid_scope", code: 70011,
                        message: "The provided value for the input parameter 'scope' is not valid. The scope "
                            + "\(scope) is not valid: this sandbox is the only resource here."))
            }
        }
        return .success(scopes)
    }
}
