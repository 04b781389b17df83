import Foundation
import Testing

@testable import GraphSandbox

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Fault injection")
struct FaultInjectionTests {
    @Test("a 429 carries a fractional Retry-After and Graph's throttling body; other requests go through")
    func throttleFractional() async throws {
        let plan = FaultPlan(rules: [FaultRule(.throttle(retryAfter: .seconds(2.128)), schedule: .requests([2]))])
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 30, faults: plan))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let first = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        let second = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        let third = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(first.status == 200)
        #expect(second.status == 429)
        #expect(third.status == 200)
        #expect(second.headers["retry-after"] == "2.128")
        let error = try #require(second.json["error"] as? [String: Any])
        #expect(error["code"] as? String == "TooManyRequests")
        #expect(error["message"] as? String == "Please retry again later.")
        let inner = try #require(error["innerError"] as? [String: Any])
        #expect(inner["code"] as? String == "429")
        #expect(inner["status"] as? String == "429")
        #expect(inner["message"] as? String == "Please retry after")
        #expect(inner["request-id"] is String)
        #expect(second.headers["x-ms-throttle-information"] == "ResourceUnitLimitExceeded")
    }

    @Test("Retry-After can be an HTTP-date at least the asked seconds ahead")
    func throttleHTTPDate() async throws {
        let plan = FaultPlan(rules: [FaultRule(.throttle(retryAfter: .httpDate(secondsFromNow: 3)))])
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 5, faults: plan))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let before = Date()
        let result = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(result.status == 429)
        let header = try #require(result.headers["retry-after"])
        #expect(header.hasSuffix(" GMT"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = try #require(formatter.date(from: header))
        #expect(date.timeIntervalSince(before) >= 3)
    }

    @Test(
        "503 (with optional Retry-After) and 504 come with Graph error bodies",
        arguments: [
            (Fault.serviceUnavailable(retryAfter: .seconds(1)), 503, "1"),
            (Fault.serviceUnavailable(retryAfter: nil), 503, nil),
            (Fault.gatewayTimeout, 504, nil),
        ])
    func serverErrors(fault: Fault, status: Int, retryAfter: String?) async throws {
        let plan = FaultPlan(rules: [FaultRule(fault, schedule: .first(1))])
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 5, faults: plan))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let failed = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(failed.status == status)
        #expect(failed.headers["retry-after"] == retryAfter)
        #expect(failed.graphErrorCode != nil)
        #expect(failed.headers["request-id"] != nil)
        let retried = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(retried.status == 200)
    }

    @Test("every 3rd users request is throttled, counting only list pages")
    func everyThird() async throws {
        let plan = FaultPlan(rules: [
            FaultRule(.throttle(retryAfter: .seconds(1)), on: .users, schedule: .every(3, startingAt: 3))
        ])
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 5, faults: plan))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        var statuses: [Int] = []
        for _ in 0..<7 {
            statuses.append(try await SandboxHarness.graph(base, "/v1.0/users", token: token).status)
            _ = try await SandboxHarness.graph(
                base, "/v1.0/users/$count", token: token, headers: ["ConsistencyLevel": "eventual"])
        }
        #expect(statuses == [200, 200, 429, 200, 200, 429, 200])
    }

    @Test("a dropped connection sends headers and part of the JSON, then closes: the client gets an error")
    func dropConnection() async throws {
        let plan = FaultPlan(rules: [FaultRule(.dropConnection, schedule: .requests([1]))])
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 50, faults: plan))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        await #expect(throws: (any Error).self) {
            _ = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        }
        let after = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(after.status == 200)
        #expect(after.values.count == 50)
        let records = await sandbox.recordedRequests().filter { $0.endpoint == .graph }
        #expect(records.first?.fault == "dropConnection")
    }

    @Test("added latency delays the answer by at least the configured time")
    func latency() async throws {
        let plan = FaultPlan(rules: [FaultRule(.latency(milliseconds: 300), on: .graph)])
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 5, faults: plan))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(result.status == 200)
        #expect(clock.now - start >= .milliseconds(300))
        #expect(await sandbox.recordedRequests().last?.fault == "latency")
    }

    @Test("tokens expire after N Graph requests; a fresh token works again")
    func tokenExpiry() async throws {
        let plan = FaultPlan(tokenExpiresAfterRequests: 2)
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 5, faults: plan))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        #expect(try await SandboxHarness.graph(base, "/v1.0/users", token: token).status == 200)
        #expect(try await SandboxHarness.graph(base, "/v1.0/users", token: token).status == 200)
        let expired = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(expired.status == 401)
        #expect(expired.graphErrorCode == "InvalidAuthenticationToken")
        #expect(expired.graphErrorMessage == "Access token has expired or is not yet valid.")
        #expect(await sandbox.recordedRequests().last?.fault == "tokenExpired")
        let fresh = try await SandboxHarness.token(base)
        #expect(try await SandboxHarness.graph(base, "/v1.0/users", token: fresh).status == 200)
    }

    @Test("the token endpoint can be throttled in the identity platform's shape")
    func tokenThrottle() async throws {
        let plan = FaultPlan(rules: [FaultRule(.throttle(retryAfter: .seconds(2)), on: .token, schedule: .first(1))])
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 5, faults: plan))
        defer { Task { await sandbox.stop() } }
        let throttled = try await SandboxHarness.tokenRequest(base, fields: SandboxHarness.credentials(base))
        #expect(throttled.status == 429)
        #expect(throttled.json["error"] as? String == "temporarily_unavailable")
        #expect(throttled.headers["retry-after"] == "2")
        let ok = try await SandboxHarness.tokenRequest(base, fields: SandboxHarness.credentials(base))
        #expect(ok.status == 200)
    }

    @Test("a foreign nextLink points at another host with the same query")
    func foreignNextLink() async throws {
        let plan = FaultPlan(rules: [FaultRule(.foreignNextLink(base: "http://127.0.0.2:9"), schedule: .requests([1]))])
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 30, faults: plan))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let page = try await SandboxHarness.graph(base, "/v1.0/users", [("$top", "10")], token: token)
        let next = try #require(page.json["@odata.nextLink"] as? String)
        #expect(next.hasPrefix("http://127.0.0.2:9/v1.0/users?$top=10&$skiptoken=RFNwdA"))
        let local = next.replacingOccurrences(of: "http://127.0.0.2:9", with: base.absoluteString)
        let continued = try await SandboxHarness.send(
            try #require(URL(string: local)), headers: ["Authorization": "Bearer \(token)"])
        #expect(continued.status == 200)
        #expect(continued.values.count == 10)
    }

    @Test("the control API replaces the fault plan from JSON")
    func controlAPI() async throws {
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 5))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        let plan =
            #"{"rules":[{"fault":"serviceUnavailable","retryAfter":1.5,"on":"graph","requests":[1]}],"#
            + #""tokenExpiresAfterRequests":10}"#
        let set = try await SandboxHarness.send(
            base.appendingPathComponent("_sandbox/faults"), method: "POST",
            headers: ["Content-Type": "application/json"],
            body: Data(plan.utf8))
        #expect(set.status == 204)
        let faults = await sandbox.faults
        #expect(
            faults.rules == [
                FaultRule(.serviceUnavailable(retryAfter: .seconds(1.5)), on: .graph, schedule: .requests([1]))
            ])
        #expect(faults.tokenExpiresAfterRequests == 10)
        let failed = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(failed.status == 503)
        #expect(failed.headers["retry-after"] == "1.5")
        let bad = try await SandboxHarness.send(
            base.appendingPathComponent("_sandbox/faults"), method: "POST",
            body: Data(#"{"rules":[{"fault":"explode"}]}"#.utf8))
        #expect(bad.status == 400)
        let cleared = try await SandboxHarness.send(base.appendingPathComponent("_sandbox/faults"), method: "DELETE")
        #expect(cleared.status == 204)
        #expect(await sandbox.faults == .none)
    }

    @Test(
        "fault plans round-trip through JSON",
        arguments: [
            FaultRule(.throttle(retryAfter: .seconds(2.128)), on: .users, schedule: .every(3, startingAt: 3)),
            FaultRule(.throttle(retryAfter: .httpDate(secondsFromNow: 4)), on: .all, schedule: .first(2)),
            FaultRule(.serviceUnavailable(retryAfter: nil), on: .token, schedule: .always),
            FaultRule(.gatewayTimeout, on: .graph, schedule: .requests([1, 5])),
            FaultRule(.latency(milliseconds: 250)),
            FaultRule(.dropConnection, schedule: .every(2, startingAt: 1)),
            FaultRule(.foreignNextLink(base: "http://127.0.0.2:8080")),
        ])
    func jsonRoundTrip(rule: FaultRule) throws {
        let plan = FaultPlan(rules: [rule], tokenExpiresAfterRequests: 3)
        let data = try JSONEncoder().encode(plan)
        #expect(try JSONDecoder().decode(FaultPlan.self, from: data) == plan)
    }

    @Test("requests are recorded with method, target, lowercased headers, status, order and monotonic time")
    func recording() async throws {
        let plan = FaultPlan(rules: [FaultRule(.throttle(retryAfter: .seconds(0.5)), schedule: .requests([1]))])
        let (sandbox, base) = try await SandboxHarness.start(SandboxConfiguration(userCount: 5, faults: plan))
        defer { Task { await sandbox.stop() } }
        let token = try await SandboxHarness.token(base)
        _ = try await SandboxHarness.graph(
            base, "/v1.0/users", [("$top", "3")], token: token, headers: ["Client-Request-Id": "abc"])
        try await Task.sleep(for: .milliseconds(500))
        _ = try await SandboxHarness.graph(base, "/v1.0/users", [("$top", "3")], token: token)
        let records = await sandbox.recordedRequests()
        #expect(records.map(\.sequence) == [1, 2, 3])
        #expect(records.map(\.endpoint) == [.token, .graph, .graph])
        #expect(records.map(\.status) == [200, 429, 200])
        #expect(records[0].method == "POST")
        #expect(records[1].target == "/v1.0/users?$top=3")
        #expect(records[1].path == "/v1.0/users")
        #expect(records[1].query["$top"] == "3")
        #expect(records[1].headers["client-request-id"] == "abc")
        #expect(records[1].headers["authorization"] == "Bearer \(token)")
        #expect(records[1].fault == "throttle")
        #expect(records[1].retryAfter == "0.5")
        #expect(records[2].receivedAt - records[1].receivedAt >= .milliseconds(500))
        #expect(records[2].wallTime >= records[1].wallTime)
        let control = try await SandboxHarness.send(base.appendingPathComponent("_sandbox/requests"))
        #expect((try JSONSerialization.jsonObject(with: control.body) as? [Any])?.count == 3)
    }
}
