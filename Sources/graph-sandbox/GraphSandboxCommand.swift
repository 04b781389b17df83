import ArgumentParser
import Foundation
import GraphSandbox

/// `graph-sandbox`: serves a generated tenant as Microsoft Graph plus the identity platform's token
/// endpoint on 127.0.0.1, prints the base URL on stdout, and runs until SIGINT or SIGTERM.
@main
struct GraphSandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph-sandbox",
        abstract: "A local Microsoft Graph and identity-platform stand-in serving a generated tenant.",
        discussion: """
            Prints the base URL (e.g. http://127.0.0.1:54321) on stdout. Token endpoint: \
            POST <base>/<tenant>/oauth2/v2.0/token with scope <base>/.default. Graph: GET <base>/v1.0/users \
            and GET <base>/v1.0/users/delta. \
            Faults can also be changed at run time: POST <base>/_sandbox/faults with a fault plan as JSON. \
            POST <base>/_sandbox/changes with {"count":N,"seed":S} changes the tenant at random; \
            POST <base>/_sandbox/delta/expire makes every delta token expired (410 syncStateNotFound); \
            GET <base>/_sandbox/requests lists the requests received.
            """)

    @Option(help: "Loopback port to listen on (0: any free port).")
    var port: UInt16 = 0

    @Option(help: "How many directory objects to generate.")
    var users: Int = 500

    @Option(help: "Seed of the deterministic tenant generator.")
    var seed: UInt64 = 1

    @Option(help: "Tenant name the token endpoint answers to.")
    var tenant = "contoso"

    @Option(help: "Application (client) id of the registered app.")
    var clientId = "11111111-2222-3333-4444-555555555555"

    @Option(help: "Environment variable holding the client secret (default secret: sandbox-secret).")
    var clientSecretEnv: String?

    @Option(help: "Access token lifetime in seconds.")
    var tokenLifetime = 3599

    @Option(help: "Answer every Nth request with 429 TooManyRequests.")
    var throttleEvery: Int?

    @Option(help: "Retry-After seconds on injected 429/503 responses (fractional allowed, e.g. 2.128).")
    var retryAfter: Double?

    @Flag(help: "Send Retry-After as an HTTP-date instead of seconds.")
    var retryAfterDate = false

    @Option(help: "Answer every Nth request with 503 Service Unavailable.")
    var unavailableEvery: Int?

    @Option(help: "Answer every Nth request with 504 Gateway Timeout.")
    var gatewayTimeoutEvery: Int?

    @Option(help: "Cut the connection mid-body on every Nth request.")
    var dropEvery: Int?

    @Option(help: "Add this many milliseconds of latency to every request.")
    var latencyMs: Int?

    @Option(help: "Tokens expire after this many Graph requests each.")
    var tokenExpiresAfter: Int?

    @Option(help: "Which requests the --*-every counters count: users (list pages), graph, token or all.")
    var faultTarget = "users"

    @Option(help: "A fault plan as JSON (see /_sandbox/faults); combined with the flags above.")
    var faultsJSON: String?

    @OptionGroup(title: "Identity platform") var identity: IdentityOptions

    @Option(help: "How much of /users/delta to serve: complete, withoutLatest or none.")
    var deltaSupport = DeltaSupport.complete.rawValue

    @Option(help: "How delta rounds send a changed user: full (Graph's default) or changedOnly.")
    var deltaRecords = DeltaRecords.full.rawValue

    @Option(help: "The order of GET /users without $orderby, $filter or $search: id, descendingID or scrambled.")
    var listingOrder = ListingOrder.id.rawValue

    /// Rejects impossible numbers before anything starts.
    func validate() throws {
        guard users >= 0 else { throw ValidationError("--users must be 0 or more") }
        guard FaultTarget(rawValue: faultTarget) != nil else {
            throw ValidationError("--fault-target must be users, graph, token or all, not '\(faultTarget)'")
        }
        guard DeltaSupport(rawValue: deltaSupport) != nil else {
            throw ValidationError("--delta-support must be complete, withoutLatest or none, not '\(deltaSupport)'")
        }
        guard DeltaRecords(rawValue: deltaRecords) != nil else {
            throw ValidationError("--delta-records must be full or changedOnly, not '\(deltaRecords)'")
        }
        guard ListingOrder(rawValue: listingOrder) != nil else {
            throw ValidationError("--listing-order must be id, descendingID or scrambled, not '\(listingOrder)'")
        }
        for (name, value) in [
            ("--throttle-every", throttleEvery), ("--unavailable-every", unavailableEvery),
            ("--gateway-timeout-every", gatewayTimeoutEvery), ("--drop-every", dropEvery),
            ("--token-expires-after", tokenExpiresAfter),
        ] {
            if let value, value < 1 { throw ValidationError("\(name) must be 1 or more") }
        }
    }

    /// Starts the sandbox, prints the URL, serves until a termination signal.
    func run() async throws {
        var secret = "sandbox-secret"
        if let variable = clientSecretEnv {
            guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else {
                throw ValidationError("--client-secret-env \(variable): that environment variable is not set")
            }
            secret = value
        }
        var configuration = SandboxConfiguration(
            tenantId: tenant, clientId: clientId, clientSecret: secret, userCount: users, seed: seed, port: port,
            tokenLifetime: tokenLifetime, faults: try faultPlan(),
            deltaSupport: DeltaSupport(rawValue: deltaSupport) ?? .complete,
            deltaRecords: DeltaRecords(rawValue: deltaRecords) ?? .full,
            listingOrder: ListingOrder(rawValue: listingOrder) ?? .id)
        try identity.apply(to: &configuration)
        let sandbox = GraphSandbox(configuration: configuration)
        let url: URL
        do {
            url = try await sandbox.start()
        } catch {
            throw ValidationError(error.description)
        }
        // Written unbuffered so a parent process reading the pipe sees the URL at once.
        FileHandle.standardOutput.write(Data((url.absoluteString + "\n").utf8))
        await SignalWaiter.waitForTermination()
        await sandbox.stop()
    }

    /// The plan from `--faults-json` plus the shortcut flags.
    private func faultPlan() throws -> FaultPlan {
        var plan = FaultPlan()
        if let text = faultsJSON {
            do {
                plan = try JSONDecoder().decode(FaultPlan.self, from: Data(text.utf8))
            } catch {
                throw ValidationError("--faults-json is not a valid fault plan: \(error)")
            }
        }
        let target = FaultTarget(rawValue: faultTarget) ?? .users
        let wait: RetryAfterValue? = retryAfter.map {
            retryAfterDate ? .httpDate(secondsFromNow: Int($0.rounded(.up))) : .seconds($0)
        }
        if let every = throttleEvery {
            plan.rules.append(
                FaultRule(
                    .throttle(retryAfter: wait ?? .seconds(1)), on: target, schedule: .every(every, startingAt: every)))
        }
        if let every = unavailableEvery {
            plan.rules.append(
                FaultRule(.serviceUnavailable(retryAfter: wait), on: target, schedule: .every(every, startingAt: every))
            )
        }
        if let every = gatewayTimeoutEvery {
            plan.rules.append(FaultRule(.gatewayTimeout, on: target, schedule: .every(every, startingAt: every)))
        }
        if let every = dropEvery {
            plan.rules.append(FaultRule(.dropConnection, on: target, schedule: .every(every, startingAt: every)))
        }
        if let latency = latencyMs {
            plan.rules.append(FaultRule(.latency(milliseconds: latency), on: .all))
        }
        if let count = tokenExpiresAfter {
            plan.tokenExpiresAfterRequests = count
        }
        return plan
    }
}
