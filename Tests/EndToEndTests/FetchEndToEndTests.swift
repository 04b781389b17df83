import Foundation
import GraphSandbox
import Testing

@Suite("orgdir fetch end to end", .serialized)
struct FetchEndToEndTests {
    @Test("fetch writes the same people build records, and no site, snapshot history or delta link")
    func fetchMatchesBuild() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 1_500, seed: 11)
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            let fetched = workspace.folder.appendingPathComponent("fetched.json")
            let fetch = try await OrgDirProcess.run(
                ["fetch", "--config", settings.path, "--snapshot", fetched.path, "--json"], in: workspace.folder,
                environment: environment)
            #expect(fetch.status == 0, "stderr: \(fetch.stderr)")
            let summary = try JSONSerialization.jsonObject(with: Data(fetch.stdout.utf8)) as? [String: Any]
            #expect(summary?["people"] as? Int == 1_500)
            #expect(summary?["pages"] as? Int == 2)
            #expect(FileManager.default.fileExists(atPath: fetched.path))
            #expect(!FileManager.default.fileExists(atPath: workspace.output.path))
            let snapshots = workspace.state.appendingPathComponent("snapshots")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: snapshots.path)) ?? []).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: workspace.state.appendingPathComponent("delta.json").path))

            let build = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--quiet"], in: workspace.folder, environment: environment)
            #expect(build.status == 0, "stderr: \(build.stderr)")
            let diff = try await OrgDirProcess.run(
                ["diff", "--state", workspace.state.path, fetched.path, "latest"], in: workspace.folder)
            #expect(diff.status == 0, "fetch and build disagree: \(diff.stdout) \(diff.stderr)")
        }
    }

    @Test("a refused sign-in exits 77 and writes no snapshot file")
    func refusedSignIn() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 10, seed: 3)
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let fetched = workspace.folder.appendingPathComponent("fetched.json")
            let fetch = try await OrgDirProcess.run(
                ["fetch", "--config", settings.path, "--snapshot", fetched.path], in: workspace.folder,
                environment: ["ORGDIR_CLIENT_SECRET": "not-the-secret"])
            #expect(fetch.status == 77, "stderr: \(fetch.stderr)")
            #expect(fetch.stderr.contains("orgdir: error:"))
            #expect(!FileManager.default.fileExists(atPath: fetched.path))
        }
    }
}
