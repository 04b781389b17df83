/// One-line advice for the AADSTS codes admins actually meet, written for the person fixing the setup.
public enum AADSTSHints {
    static let table: [Int: String] = [
        7_000_215: "the client secret is wrong: put the secret's Value (not its Secret ID) in ORGDIR_CLIENT_SECRET "
            + "or in the file named by clientSecretFile",
        7_000_222: "the client secret has expired: create a new one under the app's Certificates & secrets",
        7_000_218: "no client secret or assertion reached Entra ID: set ORGDIR_CLIENT_SECRET or clientSecretFile "
            + "(auth clientSecret), certificateFile (auth certificate) or the federated token file; for deviceCode "
            + "or browser, turn on 'Allow public client flows' in the app's Authentication page",
        700_016: "the application (clientId) was not found in this tenant: check clientId and tenant, "
            + "and that an admin has consented to the app in this tenant",
        90_002: "the tenant was not found: check tenant (a GUID or a verified domain), and the cloud key "
            + "if the tenant lives in a national cloud",
        90_038: "the tenant belongs to another national cloud: set the cloud key (usgov, usgov-dod, china)",
        70_011: "the scope is not valid: orgdir asks for {graphAPI}.default (or the plist's scopes); check graphAPI "
            + "and scopes",
        700_022: "the scope names more than one resource: use scopes of a single resource (Graph)",
        65_001: "consent is missing: an admin must grant the app's User.Read.All permission (Grant admin consent)",
        700_027: "the client assertion's signature did not verify: upload this certificate (its public .pem/.cer) "
            + "to the app's Certificates & secrets, and check certificateFile and privateKeyFile belong together",
        700_024: "the client assertion is expired or not yet valid: check this machine's clock, and for "
            + "federatedToken that the token file is refreshed by its issuer",
        50_027: "the client assertion is not a valid JWT: check the certificate or federated token file",
        700_025: "this app is a public client and must not send a secret or assertion: use auth deviceCode or "
            + "browser, or turn off 'Allow public client flows' for unattended sign-in",
        90_055: "the tenant is being throttled by Entra ID: try again later",
        900_144: "a required parameter is missing from the request: check clientId, tenant and scopes",
        9_002_313: "the request was malformed: check authority, tenant and scopes",
        70_016: "the sign-in is still pending: finish it in the browser",
        70_018: "the device code was not recognised: run orgdir login again",
        70_019: "the code expired before sign-in completed: run orgdir login again and finish within the time shown",
        70_000: "the refresh token is no longer valid: run orgdir login again",
        70_008: "the refresh token expired after inactivity: run orgdir login again",
        700_082: "the refresh token expired after inactivity: run orgdir login again",
        70_043: "the sign-in frequency policy requires a new sign-in: run orgdir login again",
        50_076: "multi-factor authentication is required: run orgdir login on a terminal",
        50_126: "the user name or password is wrong",
        53_003: "a Conditional Access policy blocked the sign-in",
        501_481: "the PKCE code verifier did not match: run orgdir login --browser again",
        54_005: "the authorization code was already used: run orgdir login --browser again",
    ]

    /// Device-flow outcomes named by `error` alone; these take precedence over the AADSTS number, which varies.
    static let errors: [String: String] = [
        "authorization_declined": "the sign-in was declined: run orgdir login again and approve the request",
        "expired_token": "the code expired before sign-in completed: run orgdir login again and finish within the "
            + "time shown",
        "bad_verification_code": "the device code was not recognised: run orgdir login again",
        "access_denied": "the sign-in was declined or consent refused: run orgdir login again and approve it",
        "interaction_required": "the saved sign-in needs a person: run orgdir login again",
    ]

    /// The hint for a numeric AADSTS code, if orgdir knows one.
    public static func hint(for code: Int?) -> String? {
        guard let code else { return nil }
        return table[code]
    }

    /// The hint for an OAuth error response: the device-flow error names first, then the AADSTS code.
    public static func hint(code: Int?, error: String) -> String? {
        errors[error] ?? hint(for: code)
    }
}
