import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one place orgdir talks HTTP: Foundation's URLSession, with redirects never followed.
///
/// Redirects are refused because a followed redirect would carry the bearer token to wherever the server
/// pointed; callers see the 3xx response and decide. Everything above this type works with plain values.
public final class HTTPTransport: Sendable {
    private let session: URLSession
    /// Whether plain-HTTP requests keep their connection (`ConnectionReuse` says why they may not).
    private let reuse = ConnectionReuse()

    /// - Parameter timeout: seconds a request may wait for data before it counts as a failed connection.
    public init(timeout: TimeInterval = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = max(timeout * 5, 300)
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: RedirectRefuser(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends one request and returns whatever status came back; throws only when no response arrived.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let plain = request.url.scheme == "http"
        let ownConnection = plain ? await reuse.closesNext() : false
        if ownConnection { urlRequest.setValue("close", forHTTPHeaderField: "Connection") }
        do {
            let started = ContinuousClock.now
            let (data, response) = try await session.data(for: urlRequest)
            if plain { await reuse.record(ContinuousClock.now - started, closed: ownConnection) }
            guard let http = response as? HTTPURLResponse else { throw TransportError.notHTTP }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as TransportError {
            throw error
        } catch let error as URLError {
            throw TransportError(error)
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .failed(reason: error.localizedDescription)
        }
    }
}

/// An HTTP request as orgdir builds it.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [(String, String)]
    public var body: Data?

    public init(method: String = "GET", url: URL, headers: [(String, String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A form POST, as the token endpoint wants it.
    public static func form(_ url: URL, fields: [(String, String)], headers: [(String, String)] = []) -> HTTPRequest {
        let body = FormEncoding.encode(fields)
        return HTTPRequest(
            method: "POST", url: url,
            headers: headers + [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data(body.utf8))
    }
}

/// An HTTP response with lowercased header names.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// No HTTP response arrived: the connection failed, timed out or was cut.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    case connectionFailed(reason: String)
    case timedOut
    case connectionLost
    case notHTTP
    case cancelled
    case failed(reason: String)

    init(_ error: URLError) {
        switch error.code {
        case .timedOut: self = .timedOut
        case .networkConnectionLost: self = .connectionLost
        case .cancelled: self = .cancelled
        case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed:
            self = .connectionFailed(reason: error.localizedDescription)
        default: self = .failed(reason: error.localizedDescription)
        }
    }

    public var description: String {
        switch self {
        case .connectionFailed(let reason): "cannot connect (\(reason))"
        case .timedOut: "the request timed out"
        case .connectionLost: "the connection was lost before the response was complete"
        case .notHTTP: "the response was not HTTP"
        case .cancelled: "the request was cancelled"
        case .failed(let reason): "the request failed (\(reason))"
        }
    }
}

/// `application/x-www-form-urlencoded` as RFC 6749 wants it (space as %20 is accepted; `+` is escaped).
enum FormEncoding {
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

/// Refuses every redirect so the 3xx itself comes back to the caller.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
