import Foundation

/// `POST /{tenant}/oauth2/v2.0/devicecode`: starts a device code sign-in and answers with the code, the
/// verification URL, `expires_in`, `interval` and Microsoft's `message`.
struct DeviceCodeEndpoint: Sendable {
    let configuration: SandboxConfiguration
    let tokenEndpoint: TokenEndpoint
    let baseURL: URL

    /// Answers one `/devicecode` request (POST only).
    func handle(tenant: String, request: IncomingRequest, state: inout IdentityState, now: Date) -> SandboxResponse {
        guard request.method == "POST" else {
            return IdentityError(
                status: 400, error: "invalid_request", code: 900561,
                message: "The endpoint only accepts POST requests. Received a \(request.method) request."
            ).response(now: now, correlationId: request.header("client-request-id"))
        }
        switch start(tenant: tenant, form: TokenEndpoint.formParameters(request), state: &state, now: now) {
        case .success(let response): return response
        case .failure(let error): return error.response(now: now, correlationId: request.header("client-request-id"))
        }
    }

    /// Validates tenant, client and scopes, and records a new device code session.
    private func start(
        tenant: String, form: [String: String], state: inout IdentityState, now: Date
    ) -> Result<SandboxResponse, IdentityError> {
        if !Self.isOrganizationsAlias(tenant), let error = tokenEndpoint.validateTenant(tenant) {
            return .failure(error)
        }
        guard let clientId = form["client_id"], !clientId.isEmpty else {
            return .failure(.missingParameter("client_id"))
        }
        guard clientId.caseInsensitiveCompare(configuration.clientId) == .orderedSame else {
            return .failure(.unknownApplication(clientId, tenant: tenant))
        }
        let scopes: [String]
        switch DelegatedScopes(resources: Self.resources(tokenEndpoint)).validate(form["scope"]) {
        case .success(let valid): scopes = valid
        case .failure(let error): return .failure(error)
        }
        let script = configuration.signInScript
        let deviceCode = IdentityState.randomToken(bytes: 48)
        let userCode = String(IdentityState.randomToken(bytes: 12).uppercased().filter(\.isLetter).prefix(8))
        state.deviceSessions[deviceCode] = IdentityState.DeviceSession(
            clientId: clientId, scopes: scopes, expiresAt: now.addingTimeInterval(TimeInterval(script.codeLifetime)),
            interval: script.interval, lastPoll: now)
        state.sensitiveValues.append(deviceCode)
        let verification = "\(TokenEndpoint.resource(of: baseURL))/devicelogin"
        return .success(
            .json(
                status: 200,
                .object([
                    ("user_code", .string(userCode)),
                    ("device_code", .string(deviceCode)),
                    ("verification_uri", .string(verification)),
                    ("expires_in", .int(script.codeLifetime)),
                    ("interval", .int(script.interval)),
                    (
                        "message",
                        .string(
                            "To sign in, use a web browser to open the page \(verification) and enter the code "
                                + "\(userCode) to authenticate.")
                    ),
                ])))
    }

    /// `organizations` and `common` work for delegated sign-in (the person's home tenant decides).
    static func isOrganizationsAlias(_ tenant: String) -> Bool {
        ["common", "organizations"].contains(tenant.lowercased())
    }

    /// Resource identifiers that mean this sandbox, for delegated scopes.
    static func resources(_ endpoint: TokenEndpoint) -> Set<String> {
        Set(endpoint.acceptedScopes().map { String($0.dropLast("/.default".count)) })
    }
}

extension IdentityError {
    /// AADSTS700016: the client id is not an app in this tenant.
    static func unknownApplication(_ clientId: String, tenant: String) -> IdentityError {
        IdentityError(
            status: 400, error: "unauthorized_client", code: 700016,
            message: "Application with identifier '\(clientId)' was not found in the directory '\(tenant)'.")
    }
}
