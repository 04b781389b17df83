import Foundation

/// What the sandbox answers to one request, before it is turned into FlyingFox's response type: kept
/// free of server types so the request logic can be reasoned about (and tested) on its own.
struct SandboxResponse: Sendable {
    var status: Int
    /// Header names as they go on the wire; order kept.
    var headers: [(String, String)]
    var body: Data
    /// When set, only this many body bytes are sent after a `Content-Length` for the whole body, then the
    /// connection is closed: a response cut off mid-JSON.
    var truncateAfter: Int?
    /// Time to wait before answering (injected latency).
    var delay: Duration = .zero

    init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response with the given content type.
    static func json(
        status: Int, _ node: JSONNode, contentType: String = "application/json; charset=utf-8"
    ) -> SandboxResponse {
        SandboxResponse(status: status, headers: [("Content-Type", contentType)], body: node.data())
    }

    /// Replaces or adds one header.
    mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.0.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }

    /// The first value of a header, matched case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}
