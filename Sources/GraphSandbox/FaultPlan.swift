/// The failures a sandbox injects, scheduled by request number so tests are deterministic
/// ("every 3rd users request gets a 429"), plus tokens that stop working after N requests.
public struct FaultPlan: Sendable, Equatable, Codable {
    public var rules: [FaultRule]
    /// Each access token is rejected as expired once it has been used for this many Graph requests.
    public var tokenExpiresAfterRequests: Int?

    public init(rules: [FaultRule] = [], tokenExpiresAfterRequests: Int? = nil) {
        self.rules = rules
        self.tokenExpiresAfterRequests = tokenExpiresAfterRequests
    }

    /// No faults at all.
    public static let none = FaultPlan()

    /// True when nothing is injected.
    public var isEmpty: Bool { rules.isEmpty && tokenExpiresAfterRequests == nil }
}

/// One fault, where it applies and when.
public struct FaultRule: Sendable, Equatable, Codable {
    public var fault: Fault
    public var target: FaultTarget
    public var schedule: FaultSchedule

    public init(_ fault: Fault, on target: FaultTarget = .users, schedule: FaultSchedule = .always) {
        self.fault = fault
        self.target = target
        self.schedule = schedule
    }

    private enum CodingKeys: String, CodingKey {
        case fault, retryAfter, retryAfterDate, milliseconds, base, count, on, requests, every, startingAt, first
    }

    /// Decodes the flat JSON form, e.g. `{"fault":"throttle","retryAfter":2.128,"on":"users","every":3}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .fault)
        let retryAfter: RetryAfterValue?
        if let seconds = try container.decodeIfPresent(Double.self, forKey: .retryAfter) {
            retryAfter = .seconds(seconds)
        } else if let dateSeconds = try container.decodeIfPresent(Int.self, forKey: .retryAfterDate) {
            retryAfter = .httpDate(secondsFromNow: dateSeconds)
        } else {
            retryAfter = nil
        }
        switch name {
        case "throttle": fault = .throttle(retryAfter: retryAfter)
        case "serviceUnavailable": fault = .serviceUnavailable(retryAfter: retryAfter)
        case "gatewayTimeout": fault = .gatewayTimeout
        case "dropConnection": fault = .dropConnection
        case "latency":
            fault = .latency(milliseconds: try container.decode(Int.self, forKey: .milliseconds))
        case "foreignNextLink":
            fault = .foreignNextLink(base: try container.decode(String.self, forKey: .base))
        case "omitUsers":
            fault = .omitUsers(count: try container.decode(Int.self, forKey: .count))
        case "decoyNextLink": fault = .decoyNextLink
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .fault, in: container,
                debugDescription:
                    "unknown fault '\(name)'; expected throttle, serviceUnavailable, gatewayTimeout, dropConnection, "
                    + "latency, foreignNextLink, omitUsers or decoyNextLink")
        }
        let targetName = try container.decodeIfPresent(String.self, forKey: .on) ?? FaultTarget.users.rawValue
        guard let target = FaultTarget(rawValue: targetName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .on, in: container,
                debugDescription: "unknown target '\(targetName)'; expected users, graph, token or all")
        }
        self.target = target
        if let numbers = try container.decodeIfPresent([Int].self, forKey: .requests) {
            schedule = .requests(numbers)
        } else if let every = try container.decodeIfPresent(Int.self, forKey: .every) {
            let start = try container.decodeIfPresent(Int.self, forKey: .startingAt) ?? every
            schedule = .every(every, startingAt: start)
        } else if let first = try container.decodeIfPresent(Int.self, forKey: .first) {
            schedule = .first(first)
        } else {
            schedule = .always
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let retryAfter: RetryAfterValue?
        switch fault {
        case .throttle(let value):
            try container.encode("throttle", forKey: .fault)
            retryAfter = value
        case .serviceUnavailable(let value):
            try container.encode("serviceUnavailable", forKey: .fault)
            retryAfter = value
        case .gatewayTimeout:
            try container.encode("gatewayTimeout", forKey: .fault)
            retryAfter = nil
        case .dropConnection:
            try container.encode("dropConnection", forKey: .fault)
            retryAfter = nil
        case .latency(let milliseconds):
            try container.encode("latency", forKey: .fault)
            try container.encode(milliseconds, forKey: .milliseconds)
            retryAfter = nil
        case .foreignNextLink(let base):
            try container.encode("foreignNextLink", forKey: .fault)
            try container.encode(base, forKey: .base)
            retryAfter = nil
        case .omitUsers(let count):
            try container.encode("omitUsers", forKey: .fault)
            try container.encode(count, forKey: .count)
            retryAfter = nil
        case .decoyNextLink:
            try container.encode("decoyNextLink", forKey: .fault)
            retryAfter = nil
        }
        switch retryAfter {
        case .seconds(let seconds): try container.encode(seconds, forKey: .retryAfter)
        case .httpDate(let seconds): try container.encode(seconds, forKey: .retryAfterDate)
        case nil: break
        }
        try container.encode(target.rawValue, forKey: .on)
        switch schedule {
        case .always: break
        case .requests(let numbers): try container.encode(numbers, forKey: .requests)
        case .every(let every, let start):
            try container.encode(every, forKey: .every)
            try container.encode(start, forKey: .startingAt)
        case .first(let count): try container.encode(count, forKey: .first)
        }
    }
}

/// A failure the sandbox can inject.
public enum Fault: Sendable, Equatable {
    /// 429 TooManyRequests with Graph's throttling body (or the identity platform's on the token endpoint).
    case throttle(retryAfter: RetryAfterValue?)
    /// 503 Service Unavailable.
    case serviceUnavailable(retryAfter: RetryAfterValue?)
    /// 504 Gateway Timeout.
    case gatewayTimeout
    /// Extra time before the answer; combines with any other fault.
    case latency(milliseconds: Int)
    /// Headers and part of the JSON body, then the connection is closed.
    case dropConnection
    /// The page's `@odata.nextLink` points at another base URL (scheme, host and port) instead of the sandbox.
    case foreignNextLink(base: String)
    /// The page leaves out its last `count` users but pages on past them, as a lagging replica can: the client
    /// sees a well-formed listing that is silently short, which only a completeness check catches.
    case omitUsers(count: Int)
    /// Before its real `@odata.nextLink`, the page carries an instance annotation object holding another
    /// `"@odata.nextLink"` (a valid users URL of this sandbox): a client that reads the link from the raw
    /// bytes to start the next request early must notice the decoded page names a different one.
    case decoyNextLink

    /// A short name for recordings.
    var name: String {
        switch self {
        case .throttle: "throttle"
        case .serviceUnavailable: "serviceUnavailable"
        case .gatewayTimeout: "gatewayTimeout"
        case .latency: "latency"
        case .dropConnection: "dropConnection"
        case .foreignNextLink: "foreignNextLink"
        case .omitUsers: "omitUsers"
        case .decoyNextLink: "decoyNextLink"
        }
    }
}

/// The `Retry-After` a throttled or unavailable response carries.
public enum RetryAfterValue: Sendable, Equatable {
    /// Delta-seconds; fractional values (`2.128`) are sent as written, as Graph's own sample does.
    case seconds(Double)
    /// An RFC 1123 HTTP-date this many seconds ahead.
    case httpDate(secondsFromNow: Int)
}

/// Which requests a rule counts and applies to.
public enum FaultTarget: String, Sendable, Equatable, Codable {
    /// `GET /v1.0/users` list pages only.
    case users
    /// Every request under `/v1.0/`.
    case graph
    /// The token endpoint.
    case token
    /// Everything except the `/_sandbox` control API.
    case all
}

/// When a rule fires, by the 1-based number of the request among those its target counts.
public enum FaultSchedule: Sendable, Equatable {
    case always
    /// Exactly these request numbers.
    case requests([Int])
    /// `startingAt`, `startingAt + n`, `startingAt + 2n`...
    case every(Int, startingAt: Int)
    /// The first n requests.
    case first(Int)

    /// Whether request number `number` is hit.
    func fires(at number: Int) -> Bool {
        switch self {
        case .always: true
        case .requests(let numbers): numbers.contains(number)
        case .every(let step, let start): step > 0 && number >= start && (number - start) % step == 0
        case .first(let count): number <= count
        }
    }
}
