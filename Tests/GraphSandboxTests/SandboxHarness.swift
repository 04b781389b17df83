import Foundation
import Testing

@testable import GraphSandbox

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A finished HTTP exchange: status, headers with lowercased names, body.
struct HTTPResult: @unchecked Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// The body parsed as a JSON object (empty when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// `error.code` of a Graph error body.
    var graphErrorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }

    /// `error.message` of a Graph error body.
    var graphErrorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }

    /// The `value` array of a collection page.
    var values: [[String: Any]] { json["value"] as? [[String: Any]] ?? [] }
}

/// Plain URLSession calls against a running sandbox, the way a real client talks to Graph.
enum SandboxHarness {
    static let clientId = "11111111-2222-3333-4444-555555555555"
    static let secret = "sandbox-secret"

    /// Starts a sandbox on a free loopback port.
    static func start(_ configuration: SandboxConfiguration = SandboxConfiguration(userCount: 60)) async throws -> (
        GraphSandbox, URL
    ) {
        let sandbox = GraphSandbox(configuration: configuration)
        let url = try await sandbox.start()
        return (sandbox, url)
    }

    static func send(
        _ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil
    ) async throws -> HTTPResult {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw HarnessError("not an HTTP response") }
        var lowered: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String {
                lowered[key.lowercased()] = value
            }
        }
        return HTTPResult(status: http.statusCode, headers: lowered, body: data)
    }

    /// Posts a form to the token endpoint of `tenant`.
    static func tokenRequest(
        _ base: URL, tenant: String = "contoso", fields: [(String, String)], headers: [String: String] = [:]
    ) async throws -> HTTPResult {
        let body = fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        var allHeaders = headers
        allHeaders["Content-Type"] = "application/x-www-form-urlencoded"
        return try await send(
            base.appendingPathComponent("\(tenant)/oauth2/v2.0/token"), method: "POST", headers: allHeaders,
            body: Data(body.utf8))
    }

    /// The standard client-credentials fields for this sandbox.
    static func credentials(_ base: URL, secret: String = secret) -> [(String, String)] {
        [
            ("client_id", clientId), ("client_secret", secret), ("scope", "\(base.absoluteString)/.default"),
            ("grant_type", "client_credentials"),
        ]
    }

    /// A fresh access token.
    static func token(_ base: URL) async throws -> String {
        let result = try await tokenRequest(base, fields: credentials(base))
        guard result.status == 200, let token = result.json["access_token"] as? String else {
            throw HarnessError("token request failed: \(result.status) \(result.text)")
        }
        return token
    }

    /// `base` + path + query, each query value percent-encoded.
    static func url(_ base: URL, _ path: String, _ query: [(String, String)] = []) -> URL {
        var text = base.absoluteString + path
        if !query.isEmpty {
            text += "?" + query.map { "\($0.0)=\(encode($0.1))" }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { return base }
        return url
    }

    /// A Graph GET with a bearer token.
    static func graph(
        _ base: URL, _ path: String, _ query: [(String, String)] = [], token: String, headers: [String: String] = [:]
    ) async throws -> HTTPResult {
        var all = headers
        all["Authorization"] = "Bearer \(token)"
        return try await send(url(base, path, query), headers: all)
    }

    /// Follows `@odata.nextLink` to the end; returns every page.
    static func allPages(
        _ base: URL, query: [(String, String)], token: String, headers: [String: String] = [:]
    ) async throws -> [HTTPResult] {
        var pages = [try await graph(base, "/v1.0/users", query, token: token, headers: headers)]
        while let next = pages.last?.json["@odata.nextLink"] as? String, let url = URL(string: next) {
            guard pages.count < 1000 else { throw HarnessError("too many pages") }
            var all = headers
            all["Authorization"] = "Bearer \(token)"
            pages.append(try await send(url, headers: all))
        }
        return pages
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~$,()'")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// A failure inside the test harness itself.
struct HarnessError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
