import Foundation
import TestSupport
import Testing

@testable import GraphSandbox

/// Runs the built `graph-sandbox` executable the way a developer or another test harness would.
@Suite("graph-sandbox executable")
struct CommandLineTests {
    /// The executable beside the test bundle.
    static var binary: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("graph-sandbox").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("graph-sandbox")
    }

    /// Starts the executable and waits for the URL line it prints.
    static func launch(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (ChildProcess, URL) {
        let child = try ChildProcess(binary, arguments, environment: ChildProcess.environment(environment))
        let line = try await child.firstLine()
        guard let url = URL(string: line), line.hasPrefix("http://127.0.0.1:") else {
            child.terminate()
            throw HarnessError("graph-sandbox printed '\(line)' instead of its URL")
        }
        return (child, url)
    }

    @Test("prints its URL, serves tokens and users with flag-driven faults, and exits on SIGTERM")
    func serveAndStop() async throws {
        let (process, base) = try await Self.launch(
            [
                "--users", "12", "--seed", "3", "--client-secret-env", "SANDBOX_TEST_SECRET", "--throttle-every", "2",
                "--retry-after", "0.25",
            ],
            environment: ["SANDBOX_TEST_SECRET": "s3cret"])
        let wrong = try await SandboxHarness.tokenRequest(base, fields: SandboxHarness.credentials(base))
        #expect(wrong.status == 401)
        let good = try await SandboxHarness.tokenRequest(
            base, fields: SandboxHarness.credentials(base, secret: "s3cret"))
        let token = try #require(good.json["access_token"] as? String)
        let first = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        let second = try await SandboxHarness.graph(base, "/v1.0/users", token: token)
        #expect(first.values.count == 12)
        #expect(first.values.map { $0["id"] as? String } == TenantGenerator(seed: 3).users(count: 12).map(\.id))
        #expect(second.status == 429)
        #expect(second.headers["retry-after"] == "0.25")
        process.terminate()
        #expect(try await process.finished().status == 0)
    }

    @Test("a missing secret variable is a usage error")
    func missingSecretVariable() async throws {
        let process = try ChildProcess(Self.binary, ["--client-secret-env", "SANDBOX_TEST_SURELY_UNSET"])
        #expect(try await process.finished().status == 64)
    }
}
