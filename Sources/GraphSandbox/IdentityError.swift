import Foundation

/// An error from the token endpoint in the identity platform's shape: `error`, an `error_description`
/// starting with `AADSTSnnnn:` and ending with trace id, correlation id and timestamp, `error_codes` etc.
struct IdentityError: Error, Sendable {
    var status: Int
    /// The OAuth error (`invalid_client`, `invalid_request`...).
    var error: String
    /// The AADSTS number.
    var code: Int
    /// The message after `AADSTSnnnn: `.
    var message: String

    /// The full HTTP response; the correlation id echoes the client's `client-request-id` as Entra does.
    func response(now: Date, correlationId: String?) -> SandboxResponse {
        let traceId = UUID().uuidString.lowercased()
        let correlation = correlationId ?? UUID().uuidString.lowercased()
        let timestamp = Timestamps.identityTimestamp(now)
        let description =
            "AADSTS\(code): \(message)\r\nTrace ID: \(traceId)\r\nCorrelation ID: \(correlation)"
            + "\r\nTimestamp: \(timestamp)"
        let body = JSONNode.object([
            ("error", .string(error)),
            ("error_description", .string(description)),
            ("error_codes", .array([.int(code)])),
            ("timestamp", .string(timestamp)),
            ("trace_id", .string(traceId)),
            ("correlation_id", .string(correlation)),
            ("error_uri", .string("https://login.microsoftonline.com/error?code=\(code)")),
        ])
        var response = SandboxResponse.json(status: status, body)
        response.setHeader("Cache-Control", "no-store, no-cache")
        response.setHeader("Pragma", "no-cache")
        response.setHeader("x-ms-request-id", traceId)
        return response
    }

    static func missingParameter(_ name: String) -> IdentityError {
        IdentityError(
            status: 400, error: "invalid_request", code: 900144,
            message: "The request body must contain the following parameter: '\(name)'.")
    }
}
