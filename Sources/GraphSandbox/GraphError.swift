import Foundation

/// A Microsoft Graph error: status plus `{"error":{"code","message","innerError":{date, request-id,
/// client-request-id}}}`.
struct GraphError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    var headers: [(String, String)] = []
    /// Graph's throttling body has its own shape: innerError repeats code, status and a message.
    var throttlingShape = false

    /// The body and headers, with the per-request ids the response carries anyway.
    func response(context: GraphRequestContext) -> SandboxResponse {
        if throttlingShape {
            return throttlingResponse(context: context)
        }
        let body = JSONNode.object([
            (
                "error",
                .object([
                    ("code", .string(code)),
                    ("message", .string(message)),
                    (
                        "innerError",
                        .object([
                            ("date", .string(Timestamps.graphDate(context.date))),
                            ("request-id", .string(context.requestId)),
                            ("client-request-id", .string(context.clientRequestId)),
                        ])
                    ),
                ])
            )
        ])
        var response = SandboxResponse.json(status: status, body)
        for (name, value) in headers { response.setHeader(name, value) }
        return response
    }

    /// `{"error":{"code":"TooManyRequests","innerError":{"code":"429","date",…,"message":"Please retry after",
    /// "request-id",…,"status":"429"},"message":"Please retry again later."}}`, as in Graph's throttling docs.
    private func throttlingResponse(context: GraphRequestContext) -> SandboxResponse {
        let body = JSONNode.object([
            (
                "error",
                .object([
                    ("code", .string(code)),
                    (
                        "innerError",
                        .object([
                            ("code", .string(String(status))),
                            ("date", .string(Timestamps.graphDate(context.date))),
                            ("message", .string("Please retry after")),
                            ("request-id", .string(context.requestId)),
                            ("client-request-id", .string(context.clientRequestId)),
                            ("status", .string(String(status))),
                        ])
                    ),
                    ("message", .string(message)),
                ])
            )
        ])
        var response = SandboxResponse.json(status: status, body)
        for (name, value) in headers { response.setHeader(name, value) }
        return response
    }

    static func badRequest(_ message: String) -> GraphError {
        GraphError(status: 400, code: "BadRequest", message: message)
    }

    static func requestBadRequest(_ message: String) -> GraphError {
        GraphError(status: 400, code: "Request_BadRequest", message: message)
    }

    static func unsupportedQuery(_ message: String = "Unsupported Query.") -> GraphError {
        GraphError(status: 400, code: "Request_UnsupportedQuery", message: message)
    }

    /// 401 with Graph's `WWW-Authenticate` challenge.
    static func invalidToken(_ message: String) -> GraphError {
        GraphError(
            status: 401, code: "InvalidAuthenticationToken", message: message,
            headers: [
                (
                    "WWW-Authenticate",
                    "Bearer realm=\"\", "
                        + "authorization_uri=\"https://login.microsoftonline.com/common/oauth2/authorize\", "
                        + "client_id=\"00000003-0000-0000-c000-000000000000\""
                )
            ])
    }
}

/// Per-request values every Graph response repeats: ids and the time.
struct GraphRequestContext: Sendable {
    var requestId: String
    /// The client's `client-request-id`, or the request id when it sent none (as Graph does).
    var clientRequestId: String
    var date: Date

    init(request: IncomingRequest, now: Date) {
        requestId = UUID().uuidString.lowercased()
        clientRequestId = request.header("client-request-id") ?? requestId
        date = now
    }

    /// Adds `request-id`, `client-request-id`, `x-ms-ags-diagnostic` and `Date`.
    func decorate(_ response: inout SandboxResponse) {
        response.setHeader("request-id", requestId)
        response.setHeader("client-request-id", clientRequestId)
        response.setHeader(
            "x-ms-ags-diagnostic",
            #"{"ServerInfo":{"DataCenter":"Loopback","Slice":"E","Ring":"1","ScaleUnit":"000","#
                + #""RoleInstance":"sandbox"}}"#
        )
        response.setHeader("Date", Timestamps.httpDate(date))
        if response.header("Cache-Control") == nil { response.setHeader("Cache-Control", "no-cache") }
    }
}
