import Foundation

/// The identity platform's `POST /{tenant}/oauth2/v2.0/token` for the client credentials grant with a
/// client secret (in the body or as HTTP Basic, RFC 6749 §2.3.1). It validates in the order the real
/// endpoint reports problems and answers every failure with the identity platform's error JSON.
///
/// The only accepted scope is `<sandbox base URL>/.default` (also `http://localhost:<port>/.default` and
/// Graph's app id `00000003-0000-0000-c000-000000000000/.default`): a token for any other resource,
/// `https://graph.microsoft.com/.default` included, is AADSTS70011 here, because this server is not that
/// resource.
struct TokenEndpoint: Sendable {
    let configuration: SandboxConfiguration
    let identity: TenantIdentity
    let baseURL: URL

    /// The grant type this endpoint implements.
    static let clientCredentials = "client_credentials"

    /// Well-known grant types of the real endpoint that this sandbox does not implement.
    private static let otherKnownGrants: Set<String> = [
        "password", "urn:ietf:params:oauth:grant-type:jwt-bearer", "implicit",
    ]

    /// Validates a client credentials request (secret or assertion); nil means a token may be issued.
    func validate(tenant: String, request: IncomingRequest, state: inout IdentityState, now: Date) -> IdentityError? {
        guard request.method == "POST" else {
            return IdentityError(
                status: 400, error: "invalid_request", code: 900561,
                message: "The endpoint only accepts POST, OPTIONS requests. Received a \(request.method) request.")
        }
        if let error = validateTenant(tenant) { return error }
        let form = Self.formParameters(request)
        guard let grantType = form["grant_type"], !grantType.isEmpty else {
            return .missingParameter("grant_type")
        }
        guard grantType == Self.clientCredentials else {
            let detail =
                Self.otherKnownGrants.contains(grantType)
                ? " This sandbox implements client_credentials, device_code, authorization_code and refresh_token."
                : ""
            return IdentityError(
                status: 400, error: "unsupported_grant_type", code: 70003,
                message: "The app requested an unsupported grant type '\(grantType)'.\(detail)")
        }
        let basic: (id: String, secret: String)?
        switch basicCredentials(request.header("authorization")) {
        case .none: basic = nil
        case .malformed:
            return IdentityError(
                status: 401, error: "invalid_client", code: 9002313,
                message: "Invalid request. Request is malformed or invalid. The Authorization header is not valid "
                    + "HTTP Basic client authentication.")
        case .credentials(let id, let secret): basic = (id, secret)
        }
        let bodyClientId = form["client_id"].flatMap { $0.isEmpty ? nil : $0 }
        if let basic, let bodyClientId, basic.id != bodyClientId {
            return IdentityError(
                status: 400, error: "invalid_request", code: 9002313,
                message: "Invalid request. Request is malformed or invalid. The client_id in the body does not match "
                    + "the one in the Authorization header.")
        }
        guard let clientId = bodyClientId ?? basic?.id else { return .missingParameter("client_id") }
        guard clientId.caseInsensitiveCompare(configuration.clientId) == .orderedSame else {
            return IdentityError(
                status: 400, error: "unauthorized_client", code: 700016,
                message: "Application with identifier '\(clientId)' was not found in the directory '\(tenant)'. This "
                    + "can happen if the application has not been installed by the administrator of the tenant or "
                    + "consented to by any user in the tenant. You may have sent your authentication request to the "
                    + "wrong tenant.")
        }
        guard let scope = form["scope"], !scope.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .missingParameter("scope")
        }
        if let error = validateScope(scope) { return error }
        let bodySecret = form["client_secret"].flatMap { $0.isEmpty ? nil : $0 }
        if basic != nil, bodySecret != nil {
            return IdentityError(
                status: 400, error: "invalid_request", code: 9002313,
                message: "Invalid request. Request is malformed or invalid. Use one client authentication method: "
                    + "client_secret in the body or HTTP Basic, not both.")
        }
        if let assertion = form["client_assertion"] {
            return validateAssertion(
                assertion, type: form["client_assertion_type"], secret: bodySecret ?? basic?.secret, clientId: clientId,
                tenant: tenant, state: &state, now: now)
        }
        guard let secret = bodySecret ?? basic?.secret, !secret.isEmpty else {
            return IdentityError(
                status: 401, error: "invalid_client", code: 7000218,
                message: "The request body must contain the following parameter: 'client_assertion' or 'client_secret'."
            )
        }
        guard secret == configuration.clientSecret else {
            return IdentityError(
                status: 401, error: "invalid_client", code: 7000215,
                message: "Invalid client secret provided. Ensure the secret being sent in the request is the client "
                    + "secret value, not the client secret ID, for a secret added to app '\(configuration.clientId)'.")
        }
        return nil
    }

    /// RFC 7523 client authentication: the right assertion type, no secret beside it, a valid JWT.
    private func validateAssertion(
        _ assertion: String, type: String?, secret: String?, clientId: String, tenant: String,
        state: inout IdentityState, now: Date
    ) -> IdentityError? {
        guard type == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" else {
            return IdentityError(
                status: 400, error: "invalid_request", code: 50027,
                message: "Invalid JWT token. client_assertion_type must be "
                    + "urn:ietf:params:oauth:client-assertion-type:jwt-bearer.")
        }
        if secret != nil {
            return IdentityError(
                status: 400, error: "invalid_request", code: 9002313,
                message: "Invalid request. Request is malformed or invalid. Send client_assertion or client_secret, "
                    + "not both.")
        }
        state.sensitiveValues.append(assertion)
        let validator = ClientAssertionValidator(configuration: configuration, audiences: audiences(tenant: tenant))
        return validator.validate(assertion, clientId: clientId, state: &state, now: now)
    }

    /// The token endpoint URLs a certificate assertion may name as `aud`: this endpoint under any alias of
    /// the tenant, as sent.
    private func audiences(tenant: String) -> Set<String> {
        let roots = [Self.resource(of: baseURL)] + (baseURL.port.map { ["http://localhost:\($0)"] } ?? [])
        var result: Set<String> = []
        for root in roots {
            for alias in identity.aliases.union([tenant.lowercased()]) {
                result.insert("\(root)/\(alias)/oauth2/v2.0/token".lowercased())
            }
        }
        return result
    }

    /// The success body: `token_type`, `expires_in`, `ext_expires_in`, `access_token`.
    func success(token: String) -> SandboxResponse {
        var response = SandboxResponse.json(
            status: 200,
            .object([
                ("token_type", .string("Bearer")),
                ("expires_in", .int(configuration.tokenLifetime)),
                ("ext_expires_in", .int(configuration.tokenLifetime)),
                ("access_token", .string(token)),
            ]))
        response.setHeader("Cache-Control", "no-store, no-cache")
        response.setHeader("Pragma", "no-cache")
        return response
    }

    /// The sandbox tenant and its aliases pass; `common` & co., unknown tenants and malformed ids fail as in Entra.
    func validateTenant(_ tenant: String) -> IdentityError? {
        if identity.matches(tenant) { return nil }
        if ["common", "organizations", "consumers"].contains(tenant.lowercased()) {
            return IdentityError(
                status: 400, error: "invalid_request", code: 50059,
                message: "No tenant-identifying information found in either the request or implied by any provided "
                    + "credentials.")
        }
        if TenantIdentity.isGUID(tenant) || tenant.contains(".") {
            return IdentityError(
                status: 400, error: "invalid_request", code: 90002,
                message: "Tenant '\(tenant)' not found. Check to make sure you have the correct tenant ID and are "
                    + "signing into the correct cloud. Check with your subscription administrator, this may happen "
                    + "if there are no active subscriptions for the tenant.")
        }
        return IdentityError(
            status: 400, error: "invalid_request", code: 900023,
            message: "Specified tenant identifier '\(tenant)' is neither a valid DNS name, nor a valid external domain."
        )
    }

    /// Exactly one `/.default` scope of this resource; anything else is invalid_scope.
    private func validateScope(_ scope: String) -> IdentityError? {
        let scopes = scope.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let accepted = acceptedScopes()
        if scopes.count == 1, accepted.contains(scopes[0].lowercased()) { return nil }
        if scopes.count == 1, !scopes[0].hasSuffix("/.default") {
            return IdentityError(
                status: 400, error: "invalid_scope", code: 1_002_012,
                message: "The provided value for scope \(scope) is not valid. Client credential flows must have a "
                    + "scope value with /.default suffixed to the resource identifier (application ID URI).")
        }
        return IdentityError(
            status: 400, error: "invalid_scope", code: 70011,
            message: "The provided value for the input parameter 'scope' is not valid. The scope \(scope) is not "
                + "valid. This sandbox is the resource \(Self.resource(of: baseURL)); request "
                + "\(Self.resource(of: baseURL))/.default.")
    }

    /// The lowercased scopes that name this sandbox as the resource.
    func acceptedScopes() -> Set<String> {
        let resource = Self.resource(of: baseURL).lowercased()
        var scopes: Set<String> = ["\(resource)/.default", "00000003-0000-0000-c000-000000000000/.default"]
        if let port = baseURL.port {
            scopes.insert("http://localhost:\(port)/.default")
        }
        return scopes
    }

    /// `scheme://host:port` without a trailing slash.
    static func resource(of url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Form fields of an `application/x-www-form-urlencoded` body (first value wins); other bodies have none.
    static func formParameters(_ request: IncomingRequest) -> [String: String] {
        let contentType = request.header("content-type")?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else { return [:] }
        var result: [String: String] = [:]
        for pair in FormEncoding.pairs(String(decoding: request.body, as: UTF8.self)) where result[pair.name] == nil {
            result[pair.name] = pair.value
        }
        return result
    }

    /// What an `Authorization` header says about HTTP Basic client authentication.
    private enum BasicAuth {
        case none
        case malformed
        case credentials(String, String)
    }

    /// RFC 6749 §2.3.1: `Basic base64(urlencode(id) ":" urlencode(secret))`.
    private func basicCredentials(_ header: String?) -> BasicAuth {
        guard let header else { return .none }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].caseInsensitiveCompare("Basic") == .orderedSame else { return .none }
        guard let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else { return .malformed }
        let id = FormEncoding.decode(String(text[..<colon]))
        let secret = FormEncoding.decode(String(text[text.index(after: colon)...]))
        return .credentials(id, secret)
    }
}
