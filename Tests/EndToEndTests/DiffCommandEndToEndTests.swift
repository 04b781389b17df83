import Foundation
import GraphSandbox
import Testing

@Suite("orgdir diff and orgdir snapshots end to end", .serialized)
struct DiffCommandEndToEndTests {
    @Test("diff exits 0 when nothing changed, 1 with the joiner, leaver and move in every format, 2 on trouble")
    func diffFormats() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 30, seed: 12)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let secret = configuration.clientSecret
            #expect(try await buildJSON(workspace, settings: settings, secret: secret).0.status == 0)
            #expect(try await buildJSON(workspace, settings: settings, secret: secret).0.status == 0)
            let same = try await OrgDirProcess.run(["diff", "--config", settings.path], in: workspace.folder)
            #expect(same.status == 0, "stderr: \(same.stderr)")

            let members = await sandbox.users.filter { $0.kind == .member }
            let leaver = members[0]
            var mover = members[1]
            let oldDepartment = mover.department
            mover.department = "Mergers & <Acquisitions>"
            let hire = SandboxUser(
                id: "ffffffff-0000-4000-8000-0000000000aa", userPrincipalName: "zoe.newcomer@contoso.com",
                displayName: "Zoë Newcomer")
            try await sandbox.mutate(.remove(id: leaver.id))
            try await sandbox.mutate(.update(mover))
            try await sandbox.mutate(.add(hire))
            let (third, summary) = try await buildJSON(workspace, settings: settings, secret: secret)
            #expect(third.status == 0, "stderr: \(third.stderr)")
            #expect(summary["joiners"] as? Int == 1)
            #expect(summary["leavers"] as? Int == 1)
            #expect(summary["changed"] as? Int ?? 0 >= 1)
            #expect(summary["sync"] as? String == "delta")
            for key in ["fetched", "published", "pages", "filesWritten", "durationSeconds", "warnings"] {
                #expect(summary[key] != nil, "the --json summary lacks \(key)")
            }

            for format in ["text", "markdown", "html", "json"] {
                let outcome = try await OrgDirProcess.run(
                    ["diff", "--format", format, "--state", workspace.state.path], in: workspace.folder)
                #expect(outcome.status == 1, "\(format): \(outcome.stderr)")
                #expect(outcome.stdout.contains(hire.displayName), "\(format) lacks the joiner")
                #expect(outcome.stdout.contains(leaver.displayName), "\(format) lacks the leaver")
                #expect(outcome.stdout.contains(mover.displayName), "\(format) lacks the mover")
                if let oldDepartment { #expect(outcome.stdout.contains(oldDepartment)) }
                #expect(!outcome.stdout.contains("\u{1B}["), "\(format): colour on a pipe")
            }
            let html = try await OrgDirProcess.run(
                ["diff", "--format", "html", "--config", settings.path], in: workspace.folder)
            #expect(html.stdout.contains("Mergers &amp; &lt;Acquisitions&gt;"))
            let json = try await OrgDirProcess.run(
                ["diff", "--format", "json", "--config", settings.path], in: workspace.folder)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let body = try #require(report["diff"] as? [String: Any])
            #expect((body["joiners"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [hire.id])
            #expect((body["leavers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [leaver.id])
            let changed = try #require(body["changed"] as? [[String: Any]])
            #expect(changed.compactMap { $0["id"] as? String } == [mover.id])

            // The first and second snapshots are equal: by file name, and by path.
            let names = snapshotFiles(workspace)
            try #require(names.count == 3, "three builds, three snapshots: \(names)")
            let byName = try await OrgDirProcess.run(
                ["diff", names[0], names[1], "--config", settings.path], in: workspace.folder)
            #expect(byName.status == 0, "stderr: \(byName.stderr)")
            let folder = workspace.state.appendingPathComponent("snapshots")
            let byPath = try await OrgDirProcess.run(
                ["diff", folder.appendingPathComponent(names[0]).path, folder.appendingPathComponent(names[2]).path],
                in: workspace.folder)
            #expect(byPath.status == 1, "stderr: \(byPath.stderr)")

            // A bad command line (an unknown flag, one argument too many) is trouble too, never "different".
            let troubles = [
                ["--format", "xml"], ["1999-01-01"], ["previous", "no-such-snapshot"], ["--colour"],
                ["previous", "latest", "extra"],
            ]
            for trouble in troubles {
                let outcome = try await OrgDirProcess.run(
                    ["diff"] + trouble + ["--config", settings.path], in: workspace.folder)
                #expect(outcome.status == 2, "\(trouble): \(outcome.stderr)")
                #expect(outcome.stderr.lowercased().contains("error"))
                #expect(outcome.stdout.isEmpty)
            }

            let listing = try await OrgDirProcess.run(["snapshots", "--config", settings.path], in: workspace.folder)
            #expect(listing.status == 0, "stderr: \(listing.stderr)")
            for name in names { #expect(listing.stdout.contains(name)) }
            let listed = try await OrgDirProcess.run(
                ["snapshots", "--json", "--state", workspace.state.path], in: workspace.folder)
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            #expect(rows.compactMap { $0["name"] as? String } == names)
            #expect(rows.compactMap { $0["syncKind"] as? String } == ["full", "delta", "delta"])
            #expect(rows.last?["people"] as? Int == 30)
        }
    }

    @Test("diff with a single snapshot says there is nothing to compare, with exit 2")
    func diffTooFew() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = SandboxConfiguration(userCount: 5)
        try await withSandbox(configuration) { _, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId)
            let none = try await OrgDirProcess.run(["diff", "--config", settings.path], in: workspace.folder)
            #expect(none.status == 2)
            #expect(
                try await buildJSON(workspace, settings: settings, secret: configuration.clientSecret).0.status == 0)
            let one = try await OrgDirProcess.run(["diff", "--config", settings.path], in: workspace.folder)
            #expect(one.status == 2)
            #expect(one.stderr.contains("snapshot"))
        }
    }
}
