import Foundation

/// Microsoft Graph did not give orgdir the directory: each case says why and whether a later run may succeed.
public enum GraphError: Error, Sendable, Equatable, LocalizedError {
    /// Getting a token failed.
    case auth(AuthError)
    /// A link from the server pointed outside the configured Graph scheme, host and port; it was not followed.
    case untrustedLink(url: String, expected: String)
    /// The server answered with a redirect, which orgdir never follows with a token attached.
    case redirectRefused(status: Int, location: String?)
    /// Graph answered with an error that retrying will not fix (400, 403, 404, 501…).
    case service(GraphServiceError)
    /// Throttling, outages or broken connections outlasted the retry budget.
    case retriesExhausted(url: String, attempts: Int, waited: TimeInterval, lastProblem: String)
    /// A 2xx response that is not the JSON Graph documents.
    case malformedResponse(url: String, reason: String)
    /// Fewer users arrived than Graph counted: publishing would silently drop people.
    case incomplete(expected: Int, received: Int)

    public var errorDescription: String? {
        switch self {
        case .auth(let error):
            error.errorDescription
        case .untrustedLink(let url, let expected):
            "Graph returned a link to \(url), outside the configured Graph host \(expected); "
                + "it was not followed and no token was sent there. Check graphAPI, or a proxy rewriting responses"
        case .redirectRefused(let status, let location):
            "Graph answered HTTP \(status) redirecting to \(location ?? "nowhere"); orgdir does not follow "
                + "redirects with a token attached. Check graphAPI"
        case .service(let error):
            error.summary
        case .retriesExhausted(let url, let attempts, let waited, let lastProblem):
            "gave up on \(url) after \(attempts) attempts and \(String(format: "%.1f", waited)) s of waiting: "
                + "\(lastProblem). Nothing was published; try again later (maxAttempts, maxRetryWait)"
        case .malformedResponse(let url, let reason):
            "unexpected response from \(url): \(reason)"
        case .incomplete(let expected, let received):
            "Graph counted \(expected) users but only \(received) arrived; nothing was published so nobody "
                + "goes missing. Try again later"
        }
    }

    /// Whether the same run later could succeed (exit code "try again later").
    public var isTransient: Bool {
        switch self {
        case .auth(let error): error.isTransient
        case .retriesExhausted, .incomplete: true
        case .service(let error): error.status == 429 || error.status >= 500 && error.status != 501
        case .untrustedLink, .redirectRefused, .malformedResponse: false
        }
    }
}

/// Graph's error JSON: `{"error":{"code","message","innerError":{"date","request-id","client-request-id"}}}`.
public struct GraphServiceError: Sendable, Equatable {
    public var status: Int
    public var code: String
    public var message: String
    public var requestId: String?
    public var clientRequestId: String?
    public var date: String?
    public var url: String

    /// Everything support needs, on one line.
    public var summary: String {
        var text = "Graph answered HTTP \(status) \(code): \(message)"
        if let hint { text += " — hint: \(hint)" }
        var ids: [String] = []
        if let requestId { ids.append("request-id \(requestId)") }
        if let clientRequestId { ids.append("client-request-id \(clientRequestId)") }
        if let date { ids.append("date \(date)") }
        if !ids.isEmpty { text += " (\(ids.joined(separator: ", ")))" }
        return text + " [\(url)]"
    }

    private var hint: String? {
        switch (status, code) {
        case (403, _), (_, "Authorization_RequestDenied"):
            "the app lacks permission: grant the application permission User.Read.All and admin consent"
        case (400, "Request_UnsupportedQuery"): unsupportedQueryHint
        case (501, _): "a selected property cannot be listed for all users; remove it from select"
        case (401, _): "the token was refused; check the app registration and the tenant"
        default: nil
        }
    }

    /// Names the part of the query Graph could not answer: the delta request, the filter, or the rest.
    private var unsupportedQueryHint: String {
        if url.contains("/delta") { return "this server cannot answer the delta query; runs fall back to full syncs" }
        if url.contains("$filter=") || url.contains("%24filter=") {
            return "Graph cannot answer this filter; change the filter key"
        }
        return "Graph cannot answer this query; check the select and pageSize keys"
    }

    /// Parses Graph's error body, reading `innerError` or `innererror` and the request-id header as fallback.
    static func parse(status: Int, headers: [String: String], body: Data, url: String) -> GraphServiceError {
        var code = "http_\(status)"
        var message = String(decoding: body.prefix(200), as: UTF8.self)
        var requestId = headers["request-id"]
        var clientRequestId = headers["client-request-id"]
        var date: String?
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let error = object["error"] as? [String: Any]
        {
            code = error["code"] as? String ?? code
            message = error["message"] as? String ?? ""
            let inner = error.first { $0.key.lowercased() == "innererror" }?.value as? [String: Any] ?? [:]
            requestId = inner["request-id"] as? String ?? inner["requestId"] as? String ?? requestId
            clientRequestId = inner["client-request-id"] as? String ?? clientRequestId
            date = inner["date"] as? String
        }
        return GraphServiceError(
            status: status, code: code, message: message, requestId: requestId, clientRequestId: clientRequestId,
            date: date, url: url)
    }
}
