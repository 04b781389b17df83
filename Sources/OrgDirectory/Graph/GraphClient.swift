import Foundation
import Logging

/// Talks to Microsoft Graph for one run: attaches the token, retries what Graph says to retry, and never sends
/// the token anywhere but the configured Graph scheme, host and port.
public struct GraphClient: Sendable {
    /// Requests go only to URLs with this origin.
    public let origin: GraphOrigin
    private let tokens: TokenProvider
    private let transport: HTTPTransport
    private let retry: RetryPolicy
    private let logger: Logger
    /// Extra wait added to every server-given delay, so a retry lands strictly after `Retry-After`.
    private let safetyMargin: TimeInterval = 0.05

    public init(graphRoot: URL, tokens: TokenProvider, transport: HTTPTransport, retry: RetryPolicy, logger: Logger) {
        self.origin = GraphOrigin(graphRoot)
        self.tokens = tokens
        self.transport = transport
        self.retry = retry
        self.logger = logger
    }

    /// GETs `url` and decodes the JSON body; a body that fails to decode is retried like a dropped connection,
    /// because a cut-off response is the usual cause.
    public func getJSON<T: Decodable & Sendable>(
        _ type: T.Type, from url: URL, headers: [(String, String)] = []
    ) async throws(GraphError) -> T {
        try await send(url: url, headers: headers) { response in
            do {
                if T.self == GraphUsersPage.self, let page = try GraphUsersPage.decode(from: response.body) as? T {
                    return .success(page)
                }
                return .success(try JSONDecoder().decode(T.self, from: response.body))
            } catch {
                return .failure(
                    .malformedResponse(url: url.absoluteString, reason: "the JSON body could not be read (\(error))"))
            }
        }
    }

    /// GETs `url` and returns the raw JSON body once it looks complete (ends with `}`); a cut-off body is retried.
    public func getJSONData(from url: URL, headers: [(String, String)] = []) async throws(GraphError) -> Data {
        try await send(url: url, headers: headers) { response in
            let body = response.body
            var end = body.endIndex
            while end > body.startIndex, [0x20, 0x0A, 0x0D, 0x09].contains(body[body.index(before: end)]) {
                end = body.index(before: end)
            }
            guard end > body.startIndex, body[body.index(before: end)] == UInt8(ascii: "}") else {
                return .failure(.malformedResponse(url: url.absoluteString, reason: "the JSON body was cut off"))
            }
            return .success(body)
        }
    }

    /// GETs `url` and returns the body as text (for `/users/$count`).
    public func getText(from url: URL, headers: [(String, String)] = []) async throws(GraphError) -> String {
        try await send(url: url, headers: headers) { response in
            .success(String(decoding: response.body, as: UTF8.self))
        }
    }

    /// The retry loop: one logical request, as many attempts as the policy allows.
    private func send<T>(
        url: URL, headers: [(String, String)], decode: (HTTPResponse) -> Result<T, GraphError>
    ) async throws(GraphError) -> T {
        guard origin.contains(url) else {
            throw .untrustedLink(url: url.absoluteString, expected: origin.description)
        }
        var attempt = 0
        var waited: TimeInterval = 0
        // True right after a 401 made us fetch a new token: a second 401 in a row means the new token is refused
        // too (wrong tenant, missing permission), so stop. Any other answer resets it, because tokens that are
        // revoked every few requests (CAE, short-lived test tokens) may be refused again later in the same retry
        // loop, after a 429 or 503, and each of those refusals deserves its own renewal.
        var renewedAfter401 = false
        while true {
            attempt += 1
            let token: AccessToken
            do {
                token = try await tokens.token()
            } catch {
                throw .auth(error)
            }
            let clientRequestId = UUID().uuidString.lowercased()
            let request = HTTPRequest(
                url: url,
                headers: headers + [
                    ("Authorization", "Bearer \(token.value)"), ("Accept", "application/json"),
                    ("client-request-id", clientRequestId), ("return-client-request-id", "true"),
                    ("User-Agent", "orgdir/\(OrgDirVersion.current)"),
                ])
            let started = ContinuousClock.now
            let problem: String
            var serverDelay: TimeInterval?
            do {
                let response = try await transport.send(request)
                let elapsed = ContinuousClock.now - started
                if response.status != 401 { renewedAfter401 = false }
                logger.debug(
                    "GET \(url.absoluteString) → \(response.status) in \(elapsed.formattedMilliseconds)",
                    metadata: [
                        "client-request-id": "\(clientRequestId)",
                        "request-id": "\(response.headers["request-id"] ?? "-")",
                    ])
                switch response.status {
                case 200..<300:
                    switch decode(response) {
                    case .success(let value): return value
                    case .failure(let error):
                        if attempt >= retry.maxAttempts { throw error }
                        problem = error.errorDescription ?? "unreadable body"
                    }
                case 300..<400:
                    throw GraphError.redirectRefused(status: response.status, location: response.headers["location"])
                case 401 where !renewedAfter401:
                    // A token can expire or be revoked mid-run: get one new token, retry once.
                    renewedAfter401 = true
                    await tokens.invalidate(token)
                    logger.info("Graph refused the token (401); getting a new one and retrying once")
                    attempt -= 1
                    continue
                case 429, 503, 504:
                    serverDelay = RetryAfter.seconds(from: response.headers["retry-after"])
                    let graphError = GraphServiceError.parse(
                        status: response.status, headers: response.headers, body: response.body,
                        url: url.absoluteString)
                    problem = "HTTP \(response.status) \(graphError.code)"
                    if attempt >= retry.maxAttempts { break }
                default:
                    throw GraphError.service(
                        GraphServiceError.parse(
                            status: response.status, headers: response.headers, body: response.body,
                            url: url.absoluteString))
                }
            } catch let error as GraphError {
                throw error
            } catch let error as TransportError {
                if error == .cancelled {
                    throw .retriesExhausted(
                        url: url.absoluteString, attempts: attempt, waited: waited, lastProblem: "cancelled")
                }
                problem = error.description
                logger.debug("GET \(url.absoluteString) failed: \(error.description)")
            } catch {
                problem = String(describing: error)
            }
            let delay = serverDelay.map { $0 + safetyMargin } ?? retry.backoff(afterAttempt: attempt)
            guard attempt < retry.maxAttempts, waited + delay <= retry.maxTotalWait else {
                throw .retriesExhausted(
                    url: url.absoluteString, attempts: attempt, waited: waited, lastProblem: problem)
            }
            logger.info(
                "\(problem); retrying in \(String(format: "%.2f", delay)) s (attempt \(attempt + 1) of \(retry.maxAttempts))"
            )
            do {
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            } catch {
                throw .retriesExhausted(
                    url: url.absoluteString, attempts: attempt, waited: waited, lastProblem: "cancelled")
            }
            waited += delay
        }
    }
}

/// Scheme, host and port that Graph requests may go to.
public struct GraphOrigin: Sendable, Equatable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? "https"
        host = url.host?.lowercased() ?? ""
        port = url.port ?? (scheme == "http" ? 80 : 443)
    }

    /// True when `url` has exactly this scheme, host and port.
    public func contains(_ url: URL) -> Bool {
        GraphOrigin(url) == self && url.host != nil
    }

    public var description: String { "\(scheme)://\(host):\(port)" }
}

extension Duration {
    /// "12.3 ms", for request logs.
    var formattedMilliseconds: String {
        let (seconds, attoseconds) = components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.1f ms", milliseconds)
    }
}
