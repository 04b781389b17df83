import Crypto
import Foundation

/// The token endpoint's delegated grants: device code polling (pending, slow_down, declined, expired),
/// authorization code with its PKCE verifier, and refresh token with rotation (a redeemed refresh token is
/// refused from then on).
struct DelegatedGrantEndpoint: Sendable {
    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"
    static let grantTypes: Set<String> = [deviceCodeGrant, "authorization_code", "refresh_token"]

    let configuration: SandboxConfiguration
    let tokenEndpoint: TokenEndpoint
    let issuer: DelegatedTokenIssuer

    /// Checks tenant and client, runs the grant, and issues tokens for the scopes it granted.
    func handle(
        tenant: String, form: [String: String], state: inout IdentityState, tokens: inout TokenRegistry, now: Date
    ) -> Result<SandboxResponse, IdentityError> {
        if !DeviceCodeEndpoint.isOrganizationsAlias(tenant), let error = tokenEndpoint.validateTenant(tenant) {
            return .failure(error)
        }
        guard let clientId = form["client_id"], !clientId.isEmpty else {
            return .failure(.missingParameter("client_id"))
        }
        guard clientId.caseInsensitiveCompare(configuration.clientId) == .orderedSame else {
            return .failure(.unknownApplication(clientId, tenant: tenant))
        }
        let scopes: Result<[String], IdentityError>
        switch form["grant_type"] {
        case Self.deviceCodeGrant: scopes = pollDeviceCode(form, clientId: clientId, state: &state, now: now)
        case "authorization_code": scopes = redeemCode(form, clientId: clientId, state: &state, now: now)
        default: scopes = redeemRefreshToken(form, clientId: clientId, state: &state)
        }
        return scopes.map { issuer.issue(scopes: $0, clientId: clientId, state: &state, tokens: &tokens, now: now) }
    }

    /// One device code poll: follows the script (pending, slow_down, decline), enforces the interval and expiry.
    private func pollDeviceCode(
        _ form: [String: String], clientId: String, state: inout IdentityState, now: Date
    ) -> Result<[String], IdentityError> {
        guard let code = form["device_code"], !code.isEmpty else { return .failure(.missingParameter("device_code")) }
        guard var session = state.deviceSessions[code], session.clientId.lowercased() == clientId.lowercased() else {
            return .failure(Self.error("bad_verification_code", 70018, "The device code was not recognised."))
        }
        defer { state.deviceSessions[code] = session }
        guard configuration.publicClientFlows else {
            return .failure(
                IdentityError(
                    status: 401, error: "invalid_client", code: 7000218,
                    message: "The request body must contain the following parameter: 'client_assertion' or "
                        + "'client_secret'."))
        }
        if session.redeemed {
            return .failure(Self.error("invalid_grant", 54005, "The device code was already redeemed."))
        }
        if now > session.expiresAt {
            return .failure(Self.error("expired_token", 70019, "Verification code expired."))
        }
        // RFC 8628 §3.5: polling faster than the interval earns slow_down (with a second of tolerance).
        if let last = session.lastPoll, now.timeIntervalSince(last) < Double(session.interval - 1) {
            session.lastPoll = now
            session.interval += 5
            return .failure(Self.error("slow_down", 70016, "Polling too fast. Wait at least the interval."))
        }
        session.lastPoll = now
        session.polls += 1
        let script = configuration.signInScript
        if session.polls <= script.pendingAnswers {
            return .failure(
                Self.error(
                    "authorization_pending", 70016,
                    "OAuth 2.0 device flow error. Authorization is pending. Continue polling."))
        }
        if session.polls <= script.pendingAnswers + script.slowDownAnswers {
            session.interval += 5
            return .failure(Self.error("slow_down", 70016, "Polling too fast. Add 5 seconds to the interval."))
        }
        if script.declines {
            return .failure(Self.error("authorization_declined", 65004, "User declined to consent to access the app."))
        }
        session.redeemed = true
        return .success(session.scopes)
    }

    /// An authorization code: once only, unexpired, same redirect URI, and the verifier matching the S256 challenge.
    private func redeemCode(
        _ form: [String: String], clientId: String, state: inout IdentityState, now: Date
    ) -> Result<[String], IdentityError> {
        guard let code = form["code"], !code.isEmpty else { return .failure(.missingParameter("code")) }
        guard let redirect = form["redirect_uri"], !redirect.isEmpty else {
            return .failure(.missingParameter("redirect_uri"))
        }
        guard let verifier = form["code_verifier"], !verifier.isEmpty else {
            return .failure(.missingParameter("code_verifier"))
        }
        guard var grant = state.authorizationCodes[code], grant.clientId.lowercased() == clientId.lowercased() else {
            return .failure(Self.error("invalid_grant", 70000, "The provided authorization code is invalid."))
        }
        guard !grant.redeemed else {
            return .failure(Self.error("invalid_grant", 54005, "OAuth2 Authorization code was already redeemed."))
        }
        guard now <= grant.expiresAt else {
            return .failure(Self.error("invalid_grant", 70008, "The provided authorization code has expired."))
        }
        guard redirect == grant.redirectURI else {
            return .failure(
                Self.error(
                    "invalid_grant", 50011,
                    "The redirect URI '\(redirect)' does not match the one used to acquire "
                        + "the authorization code."))
        }
        guard Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8)))) == grant.challenge else {
            return .failure(
                Self.error(
                    "invalid_grant", 501481,
                    "The Code_Verifier does not match the code_challenge supplied in the authorization request."))
        }
        grant.redeemed = true
        state.authorizationCodes[code] = grant
        return .success(grant.scopes)
    }

    /// A refresh token: known, for this client, and not redeemed before (rotation).
    private func redeemRefreshToken(
        _ form: [String: String], clientId: String, state: inout IdentityState
    ) -> Result<[String], IdentityError> {
        guard let token = form["refresh_token"], !token.isEmpty else {
            return .failure(.missingParameter("refresh_token"))
        }
        guard var record = state.refreshTokens[token], record.clientId.lowercased() == clientId.lowercased() else {
            return .failure(Self.error("invalid_grant", 9002313, "Invalid request. The refresh token is malformed."))
        }
        guard !record.redeemed else {
            state.replayedRefreshTokens += 1
            return .failure(
                Self.error(
                    "invalid_grant", 70000,
                    "The provided grant has expired due to it being revoked: this refresh "
                        + "token was already redeemed and replaced."))
        }
        record.redeemed = true
        state.refreshTokens[token] = record
        return .success(record.scopes)
    }

    private static func error(_ error: String, _ code: Int, _ message: String) -> IdentityError {
        IdentityError(status: 400, error: error, code: code, message: message)
    }
}
