import Foundation

/// Sign-in failed: the identity platform said no, or could not be reached.
public enum AuthError: Error, Sendable, Equatable, LocalizedError {
    /// The token endpoint answered with an OAuth error.
    case rejected(TokenEndpointError)
    /// No answer from the token endpoint (worth retrying later).
    case unreachable(endpoint: String, reason: String)
    /// The endpoint answered 2xx with something that is not a token response.
    case malformedResponse(endpoint: String, reason: String)
    /// The secret, certificate, key or federated token could not be found, read or used.
    case credentialUnavailable(reason: String)
    /// A delegated method has no saved sign-in and there is no terminal to sign in on.
    case loginRequired(reason: String, configPath: String)
    /// The saved refresh token was refused; only a new interactive sign-in helps.
    case savedSignInRefused(TokenEndpointError, configPath: String)
    /// The token cache file can be read by other users, so it is not trusted (as ssh does with keys).
    case cacheTooOpen(path: String, mode: UInt16)
    /// The token cache cannot be read or written.
    case cacheUnusable(path: String, reason: String)
    /// An interactive sign-in did not complete (declined in the browser, state mismatch, timed out).
    case interactiveSignInFailed(reason: String)

    public var errorDescription: String? {
        switch self {
        case .rejected(let error): "sign-in failed: \(error.summary)"
        case .unreachable(let endpoint, let reason): "sign-in failed: cannot reach \(endpoint): \(reason)"
        case .malformedResponse(let endpoint, let reason):
            "sign-in failed: unexpected answer from \(endpoint): \(reason)"
        case .credentialUnavailable(let reason): "sign-in failed: \(reason)"
        case .loginRequired(let reason, let configPath):
            "sign-in needed: \(reason); run `orgdir login --config \(configPath)` on a terminal first"
        case .savedSignInRefused(let error, let configPath):
            "sign-in failed: the saved sign-in was refused: \(error.summary); "
                + "run `orgdir login --config \(configPath)` again"
        case .cacheTooOpen(let path, let mode):
            "sign-in failed: permissions \(String(format: "%04o", Int(mode))) for '\(path)' are too open; the token "
                + "cache must be readable by you only: run chmod 600 '\(path)' (or `orgdir logout` and sign in again)"
        case .cacheUnusable(let path, let reason): "sign-in failed: token cache \(path): \(reason)"
        case .interactiveSignInFailed(let reason): "sign-in failed: \(reason)"
        }
    }

    /// Whether trying again later could help (network trouble, throttling, service errors).
    public var isTransient: Bool {
        switch self {
        case .unreachable: true
        case .rejected(let error):
            error.status == 429 || error.status >= 500 || error.error == "temporarily_unavailable"
        case .malformedResponse, .credentialUnavailable, .loginRequired, .savedSignInRefused, .cacheTooOpen,
            .cacheUnusable, .interactiveSignInFailed:
            false
        }
    }
}

/// The identity platform's error JSON, with the AADSTS code pulled out and a hint for people.
public struct TokenEndpointError: Sendable, Equatable {
    public var status: Int
    public var error: String
    /// First line of `error_description` (the rest repeats trace ids and a timestamp).
    public var description: String
    public var codes: [Int]
    public var traceId: String?
    public var correlationId: String?

    /// `AADSTS7000215` style code, from `error_codes` or the description.
    public var aadstsCode: String? {
        if let first = codes.first { return "AADSTS\(first)" }
        guard let range = description.range(of: #"AADSTS\d+"#, options: .regularExpression) else { return nil }
        return String(description[range])
    }

    /// One line: the code, Microsoft's text, what to do, and the ids support will ask for.
    public var summary: String {
        var parts = ["\(error) (HTTP \(status))"]
        if !description.isEmpty { parts.append(description) }
        if let hint = AADSTSHints.hint(code: codes.first ?? aadstsNumber, error: error) {
            parts.append("hint: \(hint)")
        }
        var ids: [String] = []
        if let traceId { ids.append("trace id \(traceId)") }
        if let correlationId { ids.append("correlation id \(correlationId)") }
        if !ids.isEmpty { parts.append(ids.joined(separator: ", ")) }
        return parts.joined(separator: " — ")
    }

    private var aadstsNumber: Int? {
        aadstsCode.flatMap { Int($0.dropFirst("AADSTS".count)) }
    }

    /// Parses the identity platform's error body; unknown shapes keep the status and raw text.
    static func parse(status: Int, body: Data) -> TokenEndpointError {
        struct Body: Decodable {
            var error: String?
            var error_description: String?
            var error_codes: [Int]?
            var trace_id: String?
            var correlation_id: String?
        }
        let decoded = try? JSONDecoder().decode(Body.self, from: body)
        let fullDescription = decoded?.error_description ?? String(decoding: body.prefix(300), as: UTF8.self)
        let firstLine = fullDescription.components(separatedBy: .newlines).first ?? ""
        return TokenEndpointError(
            status: status, error: decoded?.error ?? "http_\(status)",
            description: firstLine.trimmingCharacters(in: .whitespacesAndNewlines),
            codes: decoded?.error_codes ?? [], traceId: decoded?.trace_id, correlationId: decoded?.correlation_id)
    }
}

extension AuthError {
    /// The process exit code for `orgdir login` and `build` (see README, "Exit codes").
    public var exitCode: Int32 { isTransient ? ExitStatus.tryAgainLater : ExitStatus.signIn }
}
