import FlyingFox
import FlyingSocks
import Foundation

/// A local stand-in for Microsoft Graph and the identity platform on 127.0.0.1: the token endpoint
/// (client credentials), `/v1.0/users` and `/v1.0/users/delta`, serving a generated tenant with Graph's
/// paging, query rules and error shapes, plus scheduled fault injection and a record of every request for tests.
public actor GraphSandbox {
    public nonisolated let configuration: SandboxConfiguration
    var store: TenantStore
    var tokens = TokenRegistry()
    var identityState = IdentityState()
    var faultPlan: FaultPlan
    var faultCounters: [FaultTarget: Int] = [:]
    var records: [RecordedRequest] = []
    /// What the delta tokens handed out stand for.
    var deltaSessions = DeltaSessions()
    let skipTokens: SkipTokenCodec
    let identity: TenantIdentity
    private var server: HTTPServer?
    private var serverTask: Task<Void, Never>?
    /// `http://127.0.0.1:<port>` once started; serves both the token endpoint and Graph.
    public private(set) var baseURL: URL?

    public init(configuration: SandboxConfiguration = SandboxConfiguration()) {
        self.configuration = configuration
        let users =
            configuration.fixedUsers
            ?? TenantGenerator(seed: configuration.seed, domain: configuration.effectiveDomain)
            .users(count: configuration.userCount)
        store = TenantStore(users: users, keepsScrambledOrder: configuration.listingOrder == .scrambled)
        faultPlan = configuration.faults
        skipTokens = SkipTokenCodec(key: UInt64.random(in: .min ... .max))
        identity = TenantIdentity(configuration: configuration)
    }

    /// The token endpoint URL for this sandbox's tenant.
    public var tokenURL: URL? {
        baseURL?.appendingPathComponent(configuration.tenantId).appendingPathComponent("oauth2/v2.0/token")
    }

    /// The tenant in listing order, for tests to compare against.
    public var users: [SandboxUser] { store.users }

    /// Every change applied so far, oldest first.
    public var changeLog: [TenantChangeRecord] { store.changeLog }

    /// Starts listening on 127.0.0.1 (the configured port, or any free one) and returns the base URL.
    public func start() async throws(SandboxError) -> URL {
        guard server == nil else { throw .alreadyRunning }
        let port = configuration.port
        let address: sockaddr_in
        do {
            address = try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
        } catch {
            throw .cannotListen(port: port, reason: "\(error)")
        }
        let handler = ClosureHTTPHandler { [self] request in
            try await self.serve(request)
        }
        let server = HTTPServer(address: address, timeout: 600, logger: .disabled, handler: handler)
        let failure = StartFailure()
        let task = Task {
            do {
                try await server.run()
            } catch {
                await failure.set("\(error)")
            }
        }
        do {
            try await server.waitUntilListening(timeout: 10)
        } catch {
            task.cancel()
            throw .cannotListen(port: port, reason: await failure.message ?? "the server did not start in time")
        }
        guard let listening = await server.listeningAddress, case .ip4(_, let boundPort) = listening,
            let url = URL(string: "http://127.0.0.1:\(boundPort)")
        else {
            await server.stop()
            task.cancel()
            throw .cannotListen(port: port, reason: "no listening address")
        }
        Self.disableNagle(onListenerAt: boundPort)
        self.server = server
        self.serverTask = task
        self.baseURL = url
        return url
    }

    /// Sets TCP_NODELAY on the listening socket, which connections accepted from it inherit (Linux).
    ///
    /// Why: FlyingFox writes a response's headers and its body separately; on a kept-alive connection Nagle held
    /// the body until the client acknowledged the headers, and the client delays that ACK by 40 ms. A 100-user
    /// delta page took 44 ms instead of 1.5 ms (a Python client with keep-alive shows it), which no real Graph
    /// server charges. FlyingFox offers no hook for its sockets, so the listener is found by its port.
    private static func disableNagle(onListenerAt port: UInt16) {
        #if os(Linux)
            for descriptor in Int32(3)..<Int32(1024) {
                var address = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let found = withUnsafeMutablePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
                }
                guard found == 0, address.sin_family == sa_family_t(AF_INET),
                    UInt16(bigEndian: address.sin_port) == port
                else { continue }
                var listening: Int32 = 0
                var optionLength = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &optionLength) == 0, listening != 0
                else { continue }
                var on: Int32 = 1
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            }
        #endif
    }

    /// Stops listening and closes open connections; the tenant and recordings stay for inspection.
    public func stop() async {
        guard let server else { return }
        self.server = nil
        await server.stop(timeout: 1)
        serverTask?.cancel()
        serverTask = nil
        baseURL = nil
    }

    /// Every request received so far (the `/_sandbox` control API excluded), in arrival order.
    public func recordedRequests() -> [RecordedRequest] { records }

    /// Forgets the recorded requests.
    public func clearRecordedRequests() { records.removeAll() }

    /// Replaces the fault plan and restarts request numbering for its schedules.
    public func setFaults(_ plan: FaultPlan) {
        faultPlan = plan
        faultCounters = [:]
    }

    /// The fault plan in force.
    public var faults: FaultPlan { faultPlan }

    /// Makes every token issued so far expired (the next Graph request with one gets 401).
    public func expireAllTokens() { tokens.expireAll() }

    /// Applies one change to the tenant.
    public func mutate(_ change: TenantChange) throws(TenantChangeError) {
        try store.apply(change)
    }

    /// Bridges FlyingFox to the sandbox: reads the body, answers, waits any injected latency, and sends
    /// a body cut short when a dropped connection is scheduled.
    private func serve(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try await request.bodyData
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            headers[name.rawValue.lowercased()] = value
        }
        let incoming = IncomingRequest(
            method: request.method.rawValue, target: request.target.rawValue, headers: headers, body: body)
        let response = handle(incoming)
        if response.delay > .zero {
            try await Task.sleep(for: response.delay)
        }
        return Self.httpResponse(response)
    }

    /// Converts to FlyingFox's response; a cut body keeps the full Content-Length but ends early.
    private static func httpResponse(_ response: SandboxResponse) -> HTTPResponse {
        var headers = HTTPHeaders()
        if response.header("Date") == nil {
            headers[.date] = Timestamps.httpDate(Date())
        }
        for (name, value) in response.headers {
            headers.addValue(value, for: HTTPHeader(name))
        }
        let status = HTTPStatusCode(response.status, phrase: reasonPhrase(response.status))
        if let cut = response.truncateAfter {
            let partial = Array(response.body.prefix(cut))
            let body = HTTPBodySequence(from: TruncatedBody(bytes: partial), count: response.body.count)
            return HTTPResponse(statusCode: status, headers: headers, body: body)
        }
        // One write for the whole body: FlyingFox's default 4 KB pieces cost a page of 450 KB some 110 socket
        // writes, and the delays a latency benchmark charges to the client.
        let body = HTTPBodySequence(data: response.body, suggestedBufferSize: max(4096, response.body.count))
        return HTTPResponse(statusCode: status, headers: headers, body: body)
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}

/// Carries a server start error out of the task that ran it.
private actor StartFailure {
    var message: String?

    func set(_ text: String) { message = text }
}
