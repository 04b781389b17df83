/// The form fields of a client-credentials request authenticated by a JWT instead of a secret (RFC 7523 §2.2),
/// shared by certificate and federated-token sign-in.
enum AssertionGrantFields {
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// The client-credentials form with `assertion` as the client's proof.
    static func fields(clientId: String, scope: String, assertion: String) -> [(String, String)] {
        [
            ("client_id", clientId), ("scope", scope), ("client_assertion_type", assertionType),
            ("client_assertion", assertion), ("grant_type", "client_credentials"),
        ]
    }
}
