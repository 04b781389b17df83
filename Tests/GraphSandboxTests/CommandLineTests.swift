import Foundation
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

    /// Starts the executable and waits, on a thread of its own, for the URL line it prints.
    static func launch(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Process, URL) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line: String = try await withCheckedThrowingContinuation { continuation in
            Thread {
                var bytes = Data()
                while true {
                    let chunk = output.fileHandleForReading.readData(ofLength: 1)
                    if chunk.isEmpty || chunk == Data("\n".utf8) { break }
                    bytes.append(chunk)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }.start()
        }
        guard let url = URL(string: line), line.hasPrefix("http://127.0.0.1:") else {
            process.terminate()
            throw HarnessError("graph-sandbox printed '\(line)' instead of its URL")
        }
        return (process, url)
    }

    /// Waits for exit on a thread of its own.
    static func waitForExit(_ process: Process) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }.start()
        }
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
        #expect(await Self.waitForExit(process) == 0)
    }

    @Test("a missing secret variable is a usage error")
    func missingSecretVariable() async throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["--client-secret-env", "SANDBOX_TEST_SURELY_UNSET"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        #expect(await Self.waitForExit(process) == 64)
    }
}
