import Foundation
import GraphSandbox
import TestSupport
import Testing

/// What a run killed part-way leaves, as a reboot or an out-of-memory kill would leave it: SIGKILL, so nothing of
/// orgdir's own runs on the way out.
@Suite("A run killed part-way, end to end", .serialized)
struct InterruptedRunEndToEndTests {
    /// Waits until a staging folder (a nightly's: an update folder) appears beside the output, or the run ends first;
    /// whether one appeared.
    private func stagingAppears(in folder: URL, while child: ChildProcess) async throws -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while child.isRunning, Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if names.contains(where: { $0.hasPrefix(".Output.staging-") || $0.hasPrefix(".Output.update-") }) {
                return true
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    /// Killed at several moments after its staging folder appears, a nightly leaves the published site whole: byte for
    /// byte the one before, or the new one with every person's pages. In a debug build of 2,000 people the two shorter
    /// waits end it while it renders and the two longer ones after its publish, while it saves its state. The next run
    /// removes what the killed one left (an update folder named for a process that is gone) and publishes the change.
    @Test(
        "a nightly killed as it renders leaves the site whole, old or new; the next run cleans up and publishes",
        arguments: [0, 20, 400, 1500])
    func killedNightly(afterMilliseconds delay: Int) async throws {
        try await withTenantRun(SandboxConfiguration(userCount: 2_000, seed: 21)) { run in
            let (workspace, environment) = (run.workspace, run.environment)
            let build = ["build", "--config", run.settings.path]
            // A first build, then a nightly: the site this nightly changes.
            #expect(try await run.build().status == 0)
            #expect(try await run.build().status == 0)
            let mover = try await run.sandbox.retitle(0, as: "Survivor of SIGKILL")
            let before = try workspace.outputFingerprint()

            let child = try ChildProcess(
                OrgDirProcess.binary, build, in: workspace.folder,
                environment: ChildProcess.environment(environment, removing: ["ORGDIR_CLIENT_SECRET"]))
            let appeared = try await stagingAppears(in: workspace.folder, while: child)
            #expect(appeared, "the nightly ended before its staging folder was seen")
            try await Task.sleep(for: .milliseconds(delay))
            kill(child.processIdentifier, SIGKILL)
            _ = try await child.finished()

            if try workspace.outputFingerprint() != before {
                // The new site, whole: everyone in its people.json with their three pages, the change in.
                let ids = try publishedIds(in: workspace.output)
                #expect(ids.count == 2_000)
                for ext in ["html", "md", "vcf"] {
                    #expect(workspace.files(in: "people", withExtension: ext).count == ids.count, "\(ext)")
                }
                #expect(try publishedJobTitles(in: workspace.output)[mover.id] == "Survivor of SIGKILL")
            }

            let healed = try await run.build()
            #expect(healed.status == 0, "stderr: \(healed.stderr.suffix(2000))")
            let left = try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path)
            let leftover = left.filter { $0.hasPrefix(".Output.") && $0 != ".Output.replaced" }
            #expect(leftover.isEmpty, "nothing of the killed run is left: \(left)")
            #expect(try publishedIds(in: workspace.output) == Set(await run.sandbox.users.map(\.id)))
            #expect(try publishedJobTitles(in: workspace.output)[mover.id] == "Survivor of SIGKILL")
        }
    }
}
