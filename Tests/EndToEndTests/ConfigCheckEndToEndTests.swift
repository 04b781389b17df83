import Foundation
import Testing

/// `orgdir config check`: the settings and the templates a build would use, checked with no request at all.
@Suite("orgdir config check end to end")
struct ConfigCheckEndToEndTests {
    /// Nothing listens here: a check that tried the network would fail or hang, never pass.
    // swift-format-ignore: NeverForceUnwrap
    static let unreachable = URL(string: "http://127.0.0.1:9/")!
    static let clientId = "11111111-2222-3333-4444-555555555555"

    @Test("a valid settings file is OK, names what it found, and says a secret is still missing")
    func validSettings() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let settings = try workspace.writeSettings(
            sandbox: Self.unreachable, tenant: "contoso", clientId: Self.clientId)
        let outcome = try await OrgDirProcess.run(["config", "check", "--config", settings.path], in: workspace.folder)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.contains("OK"))
        #expect(outcome.stdout.contains("contoso"))
        #expect(outcome.stdout.contains("templates   built-in"))
        #expect(outcome.stdout.contains("ORGDIR_CLIENT_SECRET"))
    }

    @Test(
        "a bad key fails with exit 78 naming the file and the key, and a secret in the plist is never echoed",
        arguments: [
            ("outptu", "<string>Site</string>", "outptu"),
            ("clientSecret", "<string>do-not-put-me-here</string>", "clientSecret"),
        ])
    func badKey(key: String, value: String, named: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let settings = try workspace.writeSettings(
            sandbox: Self.unreachable, tenant: "contoso", clientId: Self.clientId, extra: [(key, value)])
        let outcome = try await OrgDirProcess.run(["config", "check", "--config", settings.path], in: workspace.folder)
        #expect(outcome.status == 78, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("settings.plist"))
        #expect(outcome.stderr.contains("'\(named)'"))
        #expect(!outcome.stderr.contains("do-not-put-me-here"))
        #expect(outcome.stdout.isEmpty)
    }

    @Test("a broken template override fails with exit 73 at file:line:column, as a build would before any request")
    func brokenTemplate() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let templates = workspace.folder.appendingPathComponent("my-templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "<h1>{{name}}</h1>\n{{#phones}}\n".write(
            to: templates.appendingPathComponent("person.mustache"), atomically: true, encoding: .utf8)
        let settings = try workspace.writeSettings(
            sandbox: Self.unreachable, tenant: "contoso", clientId: Self.clientId,
            extra: [("templates", "<string>\(templates.path)</string>")])
        let outcome = try await OrgDirProcess.run(["config", "check", "--config", settings.path], in: workspace.folder)
        #expect(outcome.status == 73, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("person.mustache:3:1"), "file:line:column: \(outcome.stderr)")
    }

    /// A publish replaces the output folder whole: a state folder in it would lose the snapshots and the delta link.
    /// Refused before anything is made, by `config check` and by `build`, whose `--output` can move the output onto it.
    @Test("a state folder in the output folder, or the same folder, is refused with exit 78 before anything is made")
    func stateInsideOutput() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let inside = workspace.output.appendingPathComponent("State")
        let settings = try workspace.writeSettings(
            sandbox: Self.unreachable, tenant: "contoso", clientId: Self.clientId,
            extra: [("state", "<string>\(inside.path)</string>")])
        let environment = ["ORGDIR_CLIENT_SECRET": "unused"]
        let check = try await OrgDirProcess.run(["config", "check", "--config", settings.path], in: workspace.folder)
        #expect(check.status == 78, "stderr: \(check.stderr)")
        #expect(check.stderr.contains("'state'"), "\(check.stderr)")
        #expect(check.stderr.contains("is inside the output folder \(workspace.output.path)"), "\(check.stderr)")
        let build = try await OrgDirProcess.run(
            ["build", "--config", settings.path], in: workspace.folder, environment: environment)
        #expect(build.status == 78, "stderr: \(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.output.path), "nothing is made")

        // A plist whose folders are apart, and `--output` onto the state folder.
        let apart = try workspace.writeSettings(
            sandbox: Self.unreachable, tenant: "contoso", clientId: Self.clientId, name: "apart.plist")
        let moved = try await OrgDirProcess.run(
            ["build", "--config", apart.path, "--output", workspace.state.path], in: workspace.folder,
            environment: environment)
        #expect(moved.status == 78, "stderr: \(moved.stderr)")
        #expect(moved.stderr.contains("is the output folder"), "\(moved.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.state.path), "nothing is made")
    }

    /// `config check` looks at the output folder as a build's publish would, so a folder of someone else's files is
    /// found before the first scheduled run, and nothing is created or removed.
    @Test("an output folder holding someone else's files fails the check with exit 73, and is left as it was")
    func foreignOutput() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try FileManager.default.createDirectory(at: workspace.output, withIntermediateDirectories: true)
        let thesis = workspace.output.appendingPathComponent("thesis.tex")
        try "precious".write(to: thesis, atomically: true, encoding: .utf8)
        let settings = try workspace.writeSettings(
            sandbox: Self.unreachable, tenant: "contoso", clientId: Self.clientId)
        let outcome = try await OrgDirProcess.run(["config", "check", "--config", settings.path], in: workspace.folder)
        #expect(outcome.status == 73, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("holds files orgdir did not write"), "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.output.path) == ["thesis.tex"])
        #expect(!FileManager.default.fileExists(atPath: workspace.state.path))
    }
}
