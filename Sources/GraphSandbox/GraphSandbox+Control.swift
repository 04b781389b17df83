import Foundation

/// The `/_sandbox/...` test API, so tools outside the process (and the `graph-sandbox` executable's users)
/// can change faults, read recordings, expire tokens and mutate the tenant. Never faulted, never recorded.
///
/// - `GET|POST|DELETE /_sandbox/faults`: read, replace (FaultPlan JSON) or clear the fault plan
/// - `GET|DELETE /_sandbox/requests`: the recorded requests, or forget them
/// - `POST /_sandbox/tokens/expire`: expire every issued token
/// - `POST /_sandbox/delta/expire`: forget every delta token (the next deltaLink call gets 410 syncStateNotFound)
/// - `GET /_sandbox/users`: the tenant as JSON
/// - `POST /_sandbox/changes` with `{"count":N,"seed":S}`: apply random tenant changes
extension GraphSandbox {
    /// Routes one control request; answers plain JSON, never Graph-shaped.
    func handleControl(_ request: IncomingRequest) -> SandboxResponse {
        let route = "\(request.method) \(request.path)"
        switch route {
        case "GET /_sandbox/faults":
            return Self.encoded(faultPlan)
        case "POST /_sandbox/faults", "PUT /_sandbox/faults":
            do {
                setFaults(try JSONDecoder().decode(FaultPlan.self, from: request.body))
                return SandboxResponse(status: 204)
            } catch {
                return Self.problem(400, "invalid fault plan: \(error)")
            }
        case "DELETE /_sandbox/faults":
            setFaults(.none)
            return SandboxResponse(status: 204)
        case "GET /_sandbox/requests":
            return .json(status: 200, .array(records.map(Self.json)))
        case "DELETE /_sandbox/requests":
            clearRecordedRequests()
            return SandboxResponse(status: 204)
        case "POST /_sandbox/tokens/expire":
            expireAllTokens()
            return SandboxResponse(status: 204)
        case "POST /_sandbox/delta/expire":
            expireDeltaTokens()
            return SandboxResponse(status: 204)
        case "GET /_sandbox/users":
            return Self.encoded(store.users)
        case "POST /_sandbox/changes":
            struct Order: Decodable {
                var count: Int
                var seed: UInt64?
            }
            do {
                let order = try JSONDecoder().decode(Order.self, from: request.body)
                let changes = applyRandomChanges(count: order.count, seed: order.seed ?? 1)
                return .json(status: 200, .object([("applied", .int(changes.count))]))
            } catch {
                return Self.problem(400, "expected {\"count\": N, \"seed\": S}: \(error)")
            }
        case "GET /_sandbox/health":
            return .json(status: 200, .object([("status", .string("ok")), ("users", .int(store.orderedIds.count))]))
        default:
            return Self.problem(404, "unknown control endpoint \(route)")
        }
    }

    private static func encoded(_ value: some Encodable) -> SandboxResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return SandboxResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: try encoder.encode(value))
        } catch {
            return problem(500, "cannot encode: \(error)")
        }
    }

    private static func problem(_ status: Int, _ message: String) -> SandboxResponse {
        .json(status: status, .object([("error", .string(message))]))
    }

    private static func json(_ record: RecordedRequest) -> JSONNode {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .object([
            ("sequence", .int(record.sequence)),
            ("method", .string(record.method)),
            ("target", .string(record.target)),
            ("status", .int(record.status)),
            ("endpoint", .string(record.endpoint.rawValue)),
            ("fault", .optional(record.fault)),
            ("retryAfter", .optional(record.retryAfter)),
            ("wallTime", .string(formatter.string(from: record.wallTime))),
            ("headers", .object(record.headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
        ])
    }
}

/// What tests need to see of the identity platform's state.
extension GraphSandbox {
    /// Every secret, assertion, code and token this sandbox issued or received, for leak checks.
    public func sensitiveValues() -> [String] { identityState.sensitiveValues + [configuration.clientSecret] }

    /// How many refresh-token grants were refused because the token had already been redeemed.
    public var replayedRefreshTokens: Int { identityState.replayedRefreshTokens }
}
