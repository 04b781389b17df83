import Foundation

/// Request dispatch: the control API, the token endpoint and Graph, with faults applied and every
/// request recorded.
extension GraphSandbox {
    /// Answers one request (latency and truncation are carried in the response for the server layer).
    func handle(_ request: IncomingRequest) -> SandboxResponse {
        let path = request.path
        if path == "/_sandbox" || path.hasPrefix("/_sandbox/") {
            return handleControl(request)
        }
        let receivedAt = ContinuousClock.now
        let now = Date()
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var response: SandboxResponse
        let endpoint: RecordedRequest.Endpoint
        var faultName: String?
        if segments.count == 4, segments[1] == "oauth2", segments[2] == "v2.0",
            ["token", "devicecode", "authorize"].contains(segments[3])
        {
            endpoint = .token
            let decision = decideFaults(targets: [.token, .all])
            faultName = decision.failure?.name
            if let failure = decision.failure, let error = identityFailure(failure, now: now) {
                response = error.response(now: now, correlationId: request.header("client-request-id"))
                if let retryAfter = Self.retryAfterHeader(failure, now: now) {
                    response.setHeader("Retry-After", retryAfter)
                }
            } else {
                response = handleIdentity(segments[3], tenant: segments[0], request: request, now: now)
            }
            apply(decision, to: &response, faultName: &faultName)
        } else if segments.first == "v1.0" {
            endpoint = .graph
            let isUserList = segments.count == 2 && segments[1] == "users" && request.method == "GET"
            let decision = decideFaults(targets: isUserList ? [.users, .graph, .all] : [.graph, .all])
            let context = GraphRequestContext(request: request, now: now)
            faultName = decision.failure?.name
            // Graph authenticates before it throttles: a refused token gets 401 even when this request would
            // have been throttled, and every request that presents a token uses it up.
            if let rejection = tokens.authenticate(
                authorization: request.header("authorization"), now: now,
                maxUses: faultPlan.tokenExpiresAfterRequests)
            {
                response = GraphError.invalidToken(rejection.message).response(context: context)
                faultName =
                    rejection == .expired && faultPlan.tokenExpiresAfterRequests != nil ? "tokenExpired" : nil
            } else if let failure = decision.failure, let error = graphFailure(failure, now: now) {
                response = error.response(context: context)
            } else {
                let outcome = handleGraph(segments: Array(segments.dropFirst()), request: request, decision: decision)
                switch outcome {
                case .success(let success): response = success
                case .failure(let error): response = error.response(context: context)
                }
            }
            context.decorate(&response)
            apply(decision, to: &response, faultName: &faultName)
        } else {
            endpoint = .other
            let decision = decideFaults(targets: [.all])
            let context = GraphRequestContext(request: request, now: now)
            response = GraphError(
                status: 404, code: "NotFound",
                message: "No such endpoint: \(request.method) \(path). The sandbox serves "
                    + "POST /{tenant}/oauth2/v2.0/token, /devicecode, GET /authorize, GET /v1.0/users and "
                    + "GET /v1.0/users/delta."
            ).response(context: context)
            context.decorate(&response)
            apply(decision, to: &response, faultName: &faultName)
        }
        records.append(
            RecordedRequest(
                sequence: records.count + 1, method: request.method, target: request.target, headers: request.headers,
                receivedAt: receivedAt, wallTime: now, status: response.status, endpoint: endpoint, fault: faultName,
                retryAfter: response.header("Retry-After")))
        return response
    }

    /// The faults that hit this request, after counting it for each target it belongs to.
    struct FaultDecision {
        var failure: Fault?
        var latencyMilliseconds = 0
        var drop = false
        var foreignBase: String?
        /// Users a list page silently leaves out.
        var omittedUsers = 0
        /// A list page gets a decoy nextLink ahead of its real one.
        var decoy = false
    }

    /// Counts the request for each of its targets, then collects the rules that fire at those numbers.
    private func decideFaults(targets: [FaultTarget]) -> FaultDecision {
        for target in targets {
            faultCounters[target, default: 0] += 1
        }
        var decision = FaultDecision()
        for rule in faultPlan.rules where targets.contains(rule.target) {
            guard rule.schedule.fires(at: faultCounters[rule.target, default: 0]) else { continue }
            switch rule.fault {
            case .latency(let milliseconds): decision.latencyMilliseconds += max(0, milliseconds)
            case .dropConnection: decision.drop = true
            case .foreignNextLink(let base): decision.foreignBase = base
            case .omitUsers(let count): decision.omittedUsers += max(0, count)
            case .decoyNextLink: decision.decoy = true
            case .throttle, .serviceUnavailable, .gatewayTimeout:
                if decision.failure == nil { decision.failure = rule.fault }
            }
        }
        return decision
    }

    /// Latency and a cut body go on top of whatever the answer is.
    private func apply(_ decision: FaultDecision, to response: inout SandboxResponse, faultName: inout String?) {
        if decision.latencyMilliseconds > 0 {
            response.delay = .milliseconds(decision.latencyMilliseconds)
            if faultName == nil { faultName = "latency" }
        }
        if decision.drop {
            response.truncateAfter = max(1, response.body.count / 2)
            faultName = "dropConnection"
        }
        if decision.foreignBase != nil, faultName == nil, response.status == 200,
            String(decoding: response.body, as: UTF8.self).contains("@odata.nextLink")
        {
            faultName = "foreignNextLink"
        }
        if decision.omittedUsers > 0, faultName == nil, response.status == 200 {
            faultName = "omitUsers"
        }
        if decision.decoy, faultName == nil, response.status == 200 {
            faultName = "decoyNextLink"
        }
    }

    /// `Retry-After` as sent: delta-seconds as written, or an HTTP-date rounded up to a whole second so a
    /// client waiting until that date waits at least the intended time.
    static func retryAfterHeader(_ fault: Fault, now: Date) -> String? {
        let value: RetryAfterValue?
        switch fault {
        case .throttle(let retryAfter), .serviceUnavailable(let retryAfter): value = retryAfter
        default: value = nil
        }
        switch value {
        case .seconds(let seconds):
            return seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
        case .httpDate(let seconds):
            let target = (now.timeIntervalSince1970 + Double(seconds)).rounded(.up)
            return Timestamps.httpDate(Date(timeIntervalSince1970: target))
        case nil:
            return nil
        }
    }

    /// Graph's bodies for injected failures (the 429 one as in Graph's throttling documentation).
    private func graphFailure(_ fault: Fault, now: Date) -> GraphError? {
        var error: GraphError
        switch fault {
        case .throttle:
            error = GraphError(
                status: 429, code: "TooManyRequests", message: "Please retry again later.", throttlingShape: true)
            error.headers.append(
                ("x-ms-throttle-scope", "Tenant_Application/Read/\(configuration.clientId)/\(configuration.tenantGUID)")
            )
            error.headers.append(("x-ms-throttle-information", "ResourceUnitLimitExceeded"))
        case .serviceUnavailable:
            error = GraphError(
                status: 503, code: "serviceNotAvailable",
                message: "The service is temporarily unavailable for maintenance or is overloaded. You may repeat the "
                    + "request after a delay, which may be specified in a Retry-After header.")
        case .gatewayTimeout:
            error = GraphError(
                status: 504, code: "GatewayTimeout",
                message: "The gateway did not receive a timely response from the upstream service.")
        default:
            return nil
        }
        if let retryAfter = Self.retryAfterHeader(fault, now: now) {
            error.headers.append(("Retry-After", retryAfter))
        }
        return error
    }

    /// The identity platform's bodies for injected token-endpoint failures.
    private func identityFailure(_ fault: Fault, now: Date) -> IdentityError? {
        switch fault {
        case .throttle:
            IdentityError(
                status: 429, error: "temporarily_unavailable", code: 90055,
                message: "The tenant is being throttled: too many requests. Retry after the time in Retry-After.")
        case .serviceUnavailable:
            IdentityError(
                status: 503, error: "temporarily_unavailable", code: 90033,
                message: "A transient error has occurred. Please try again.")
        case .gatewayTimeout:
            IdentityError(
                status: 504, error: "temporarily_unavailable", code: 90033,
                message: "A transient error has occurred. Please try again.")
        default:
            nil
        }
    }

    /// The identity platform's endpoints: token (every grant), device code, authorize.
    private func handleIdentity(_ name: String, tenant: String, request: IncomingRequest, now: Date) -> SandboxResponse
    {
        guard let baseURL else {
            return IdentityError(status: 503, error: "temporarily_unavailable", code: 90033, message: "Not started.")
                .response(now: now, correlationId: nil)
        }
        let endpoint = TokenEndpoint(configuration: configuration, identity: identity, baseURL: baseURL)
        switch name {
        case "devicecode":
            return DeviceCodeEndpoint(configuration: configuration, tokenEndpoint: endpoint, baseURL: baseURL)
                .handle(tenant: tenant, request: request, state: &identityState, now: now)
        case "authorize":
            return AuthorizeEndpoint(configuration: configuration, tokenEndpoint: endpoint)
                .handle(tenant: tenant, request: request, state: &identityState, now: now)
        default:
            return handleToken(endpoint, tenant: tenant, request: request, now: now)
        }
    }

    /// Validates a token request and issues a token, or answers the identity error.
    private func handleToken(
        _ endpoint: TokenEndpoint, tenant: String, request: IncomingRequest, now: Date
    ) -> SandboxResponse {
        let form = TokenEndpoint.formParameters(request)
        if request.method == "POST", let grant = form["grant_type"], DelegatedGrantEndpoint.grantTypes.contains(grant) {
            let delegated = DelegatedGrantEndpoint(
                configuration: configuration, tokenEndpoint: endpoint,
                issuer: DelegatedTokenIssuer(configuration: configuration, baseURL: endpoint.baseURL))
            switch delegated.handle(tenant: tenant, form: form, state: &identityState, tokens: &tokens, now: now) {
            case .success(let response): return response
            case .failure(let error):
                return error.response(now: now, correlationId: request.header("client-request-id"))
            }
        }
        if let error = endpoint.validate(tenant: tenant, request: request, state: &identityState, now: now) {
            return error.response(now: now, correlationId: request.header("client-request-id"))
        }
        let token = tokens.issue(lifetime: configuration.tokenLifetime, now: now)
        identityState.sensitiveValues.append(token)
        return endpoint.success(token: token)
    }

    /// `/v1.0/...` after faults: authentication, then the users endpoints.
    private func handleGraph(segments: [String], request: IncomingRequest, decision: FaultDecision)
        -> Result<SandboxResponse, GraphError>
    {
        guard let first = segments.first else {
            return .failure(.badRequest("Resource not found for the segment ''."))
        }
        guard first == "users" else {
            return .failure(.badRequest("Resource not found for the segment '\(first)'."))
        }
        guard request.method == "GET" else {
            if request.method == "POST" || request.method == "PATCH" || request.method == "DELETE" {
                return .failure(
                    GraphError(
                        status: 403, code: "Authorization_RequestDenied",
                        message: "Insufficient privileges to complete the operation."))
            }
            return .failure(
                GraphError(
                    status: 405, code: "Request_BadRequest",
                    message: "The HTTP method '\(request.method)' is not allowed for this resource."))
        }
        let endpoint = UsersEndpoint(
            base: baseString, skipTokens: skipTokens, listingOrder: configuration.listingOrder)
        let consistency = UsersEndpoint.Consistency(
            eventual: request.header("consistencylevel")?.lowercased() == "eventual")
        do throws(GraphError) {
            switch segments.count {
            case 1:
                let query = try UsersQuery.parse(rawQuery: request.rawQuery, collection: true)
                let nextBase = decision.foreignBase.map(Self.trimmedBase)
                return .success(
                    try endpoint.list(
                        query: query, consistency: consistency, store: store, nextLinkBase: nextBase,
                        omitting: decision.omittedUsers, decoy: decision.decoy))
            case 2 where ["delta", "microsoft.graph.delta", "delta()"].contains(segments[1]):
                return .success(try handleDelta(rawQuery: request.rawQuery))
            case 2 where segments[1] == "$count":
                let query = try UsersQuery.parse(rawQuery: request.rawQuery, collection: true)
                return .success(try endpoint.count(query: query, consistency: consistency, store: store))
            case 2:
                let query = try UsersQuery.parse(rawQuery: request.rawQuery, collection: false)
                return .success(try endpoint.single(key: segments[1], query: query, store: store))
            case 3 where segments[2] == "manager":
                let query = try UsersQuery.parse(rawQuery: request.rawQuery, collection: false)
                return .success(try endpoint.manager(key: segments[1], query: query, store: store))
            default:
                return .failure(.badRequest("Resource not found for the segment '\(segments[segments.count - 1])'."))
            }
        } catch {
            return .failure(error)
        }
    }

    /// The base URL as text without a trailing slash.
    var baseString: String {
        baseURL.map { TokenEndpoint.resource(of: $0) } ?? "http://127.0.0.1"
    }

    private static func trimmedBase(_ text: String) -> String {
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}
