import Foundation
import GraphSandbox
import TestSupport
import Testing

/// A small tmpfs mounted on a folder of its own: a real file system that a test can fill, to see what a run does when
/// the disk is full. Mounting needs the right to (root, as on these machines and in CI): `canMount` says whether this
/// machine gives it, and the tests that need one run only then.
struct SmallFileSystem {
    let folder: URL
    private var filler: URL { folder.appendingPathComponent("filler") }

    /// `inodes`: how many files and folders it holds at most (tmpfs's `nr_inodes`), for a disk that runs out of
    /// files before it runs out of bytes.
    init(in parent: URL, megabytes: Int, inodes: Int? = nil) throws {
        folder = parent.appendingPathComponent("small-disk")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let options = "size=\(megabytes)m" + (inodes.map { ",nr_inodes=\($0)" } ?? "")
        let mounted = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", options, "tmpfs", folder.path])
        guard mounted.status == 0 else {
            throw ChildProcess.Failure(description: "mount failed (\(mounted.status)): \(mounted.standardError)")
        }
    }

    /// Fills what is left with one file, until the file system refuses a byte more; then gives back `kilobytes` of
    /// it, room for small files but not for large ones.
    func fill(leaving kilobytes: Int = 0) throws {
        _ = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/dd"), ["if=/dev/zero", "of=\(filler.path)", "bs=64k"])
        guard available() == 0 else {
            throw ChildProcess.Failure(description: "\(folder.path) still has \(available() ?? -1) KiB free")
        }
        guard kilobytes > 0 else { return }
        let size = try FileManager.default.attributesOfItem(atPath: filler.path)[.size] as? Int ?? 0
        guard truncate(filler.path, off_t(size - kilobytes * 1024)) == 0 else {
            throw ChildProcess.Failure(
                description: "cannot shorten \(filler.path): \(String(cString: strerror(errno)))")
        }
    }

    /// The KiB `df` says are free.
    private func available() -> Int? {
        let outcome = try? ChildProcess.run(URL(fileURLWithPath: "/bin/df"), ["--output=avail", folder.path])
        return outcome?.standardOutput.split(separator: "\n").last.flatMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Mounts it again read-only, or writable again: what a file system that met an error often turns into.
    func remount(readOnly: Bool) throws {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/mount"), ["-o", readOnly ? "remount,ro" : "remount,rw", folder.path])
        guard outcome.status == 0 else {
            throw ChildProcess.Failure(description: "remount failed (\(outcome.status)): \(outcome.standardError)")
        }
    }

    /// Takes every inode left with empty files in a folder `filler`, as another program filling the file system
    /// would; returns how many files that took. `free()` gives them back.
    @discardableResult
    func fillInodes() throws -> Int {
        try FileManager.default.createDirectory(at: filler, withIntermediateDirectories: false)
        var made = 0
        while FileManager.default.createFile(atPath: filler.appendingPathComponent("\(made)").path, contents: nil) {
            made += 1
        }
        return made
    }

    /// Mounts it again with room for `inodes` files and folders.
    func remount(inodes: Int) throws {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,nr_inodes=\(inodes)", folder.path])
        guard outcome.status == 0 else {
            throw ChildProcess.Failure(description: "remount failed (\(outcome.status)): \(outcome.standardError)")
        }
    }

    /// Gives back what `fill()` or `fillInodes()` took.
    func free() throws {
        try FileManager.default.removeItem(at: filler)
    }

    func unmount() {
        _ = try? ChildProcess.run(URL(fileURLWithPath: "/bin/umount"), [folder.path])
    }

    /// Mounts `folder` onto itself (`mount --bind`): a mount point with the device of its parent, as a bind mount of
    /// a share's folder is; `unmount(_:)` takes it away again.
    static func bind(_ folder: URL) throws {
        let outcome = try ChildProcess.run(URL(fileURLWithPath: "/bin/mount"), ["--bind", folder.path, folder.path])
        guard outcome.status == 0 else {
            throw ChildProcess.Failure(description: "mount --bind failed (\(outcome.status)): \(outcome.standardError)")
        }
    }

    static func unmount(_ folder: URL) {
        _ = try? ChildProcess.run(URL(fileURLWithPath: "/bin/umount"), [folder.path])
    }

    /// Whether a tmpfs can be mounted here: tried once, on a folder of its own.
    static let canMount: Bool = {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-mount-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        guard let probe = try? SmallFileSystem(in: parent, megabytes: 1) else { return false }
        probe.unmount()
        return true
    }()
}

@Suite(
    "Output and state on a small, full or read-only file system, end to end", .serialized,
    .enabled(if: SmallFileSystem.canMount, "needs the right to mount a tmpfs to make a disk that fills"))
struct DiskFullEndToEndTests {
    /// The message a full disk gives: the file that could not be written, the system's reason and what to do, never
    /// Swift's dump of an error value.
    private func expectDiskFullMessage(_ stderr: String, naming folder: URL) {
        #expect(stderr.contains("No space left on device"), "\(stderr)")
        #expect(stderr.contains("free space on that file system and run again"), "\(stderr)")
        #expect(stderr.contains(folder.path + "/"), "the message names the file: \(stderr)")
        #expect(!stderr.contains("cannotWrite("), "\(stderr)")
    }

    /// The message a file system out of inodes gives: the system's reason, the advice naming `df -i` on it, not the
    /// advice for bytes.
    private func expectOutOfInodesMessage(_ stderr: String, naming folder: URL) {
        #expect(stderr.contains("No space left on device"), "\(stderr)")
        #expect(stderr.contains("no free inodes left"), "\(stderr)")
        #expect(stderr.contains("`df -i \(folder.path)"), "names the file system: \(stderr)")
        #expect(!stderr.contains("free space on that file system"), "not the advice for bytes: \(stderr)")
    }

    /// Gives the file system `disk` room for 5,000 files and builds again: it publishes everyone.
    private func expectHealsWithMoreInodes(_ setup: Setup) async throws {
        try setup.disk.remount(inodes: 5000)
        let healed = try await setup.build()
        #expect(healed.status == 0, "stderr: \(healed.stderr.suffix(2000))")
        #expect(try publishedIds(in: setup.folder) == Set(await setup.sandbox.users.map(\.id)))
    }

    /// What each test runs in: a sandbox of 200 people, and a workspace whose output or state folder (`key`) is on a
    /// small file system of its own; `build` runs `orgdir build` there.
    struct Setup {
        let sandbox: GraphSandbox
        let workspace: Workspace
        let disk: SmallFileSystem
        /// The output or state folder, on `disk`.
        let folder: URL
        let build: () async throws -> OrgDirProcess.Outcome

        /// The snapshots saved in `state` (temporary files left out), in order.
        func savedSnapshots(in state: URL) throws -> [String] {
            let folder = state.appendingPathComponent("snapshots").path
            guard FileManager.default.fileExists(atPath: folder) else { return [] }
            return try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        }
    }

    private func onASmallDisk(
        _ key: String, seed: UInt64, inodes: Int? = nil, _ body: (Setup) async throws -> Void
    ) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let disk = try SmallFileSystem(in: workspace.folder, megabytes: 24, inodes: inodes)
        defer { disk.unmount() }
        let folder = disk.folder.appendingPathComponent(key == "state" ? "State" : "Output")
        let configuration = SandboxConfiguration(userCount: 200, seed: seed)
        try await withSandbox(configuration) { sandbox, url in
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [(key, "<string>\(folder.path)</string>")])
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            try await body(
                Setup(sandbox: sandbox, workspace: workspace, disk: disk, folder: folder) {
                    try await OrgDirProcess.run(
                        ["build", "--config", settings.path], in: workspace.folder, environment: environment)
                })
        }
    }

    @Test("a nightly on a full disk exits 73 naming the file; site and state stay as they were; with room, it heals")
    func nightlyOnAFullDisk() async throws {
        try await onASmallDisk("output", seed: 11) { setup in
            let (sandbox, output, disk) = (setup.sandbox, setup.folder, setup.disk)
            // A first build, then a first nightly: it moves its changes into the published site and keeps no spare,
            // only the files it replaced, for the next nightly to write over.
            #expect(try await setup.build().status == 0)
            let first = try await sandbox.retitle(0, as: "Head of Free Space")
            let nightly = try await setup.build()
            #expect(nightly.status == 0, "stderr: \(nightly.stderr.suffix(2000))")
            let beside = try FileManager.default.contentsOfDirectory(atPath: disk.folder.path).sorted()
            #expect(beside == [".Output.replaced", "Output"])

            let second = try await sandbox.retitle(1, as: "Chief Disk Filler")
            // Joiners too: their pages are new files, which a full disk has no room for, as it has none for the changed
            // pages and exports the nightly stages beside the site.
            for number in 1...20 {
                let id = String(format: "ffffffff-0000-4000-8000-%012d", number)
                try await sandbox.mutate(
                    .add(
                        SandboxUser(
                            id: id, userPrincipalName: "joiner\(number)@contoso.com",
                            displayName: "Joiner Number \(number)")))
            }
            let site = try filesWithBytes(under: output)
            let snapshots = try setup.savedSnapshots(in: setup.workspace.state)
            try disk.fill()

            let full = try await setup.build()
            #expect(full.status == 73, "stderr: \(full.stderr.suffix(2000))")
            expectDiskFullMessage(full.stderr, naming: disk.folder)
            #expect(try filesWithBytes(under: output) == site, "the published site changed")
            let left = try FileManager.default.contentsOfDirectory(atPath: disk.folder.path).sorted()
            #expect(left == ["Output", "filler"], "nothing half-written is left beside the site: \(left)")
            #expect(try setup.savedSnapshots(in: setup.workspace.state) == snapshots, "no snapshot without a site")

            try disk.free()
            let healed = try await setup.build()
            #expect(healed.status == 0, "stderr: \(healed.stderr.suffix(2000))")
            let titles = try publishedJobTitles(in: output)
            #expect(titles[second.id] == "Chief Disk Filler")
            #expect(titles[first.id] == "Head of Free Space")
            #expect(try publishedIds(in: output) == Set(await sandbox.users.map(\.id)))
        }
    }

    @Test("a first build out of inodes, with bytes to spare, exits 73 naming `df -i`; with more inodes it publishes")
    func firstBuildOutOfInodes() async throws {
        // 200 people are some 700 files: 150 inodes run out long before 24 MB do.
        try await onASmallDisk("output", seed: 13, inodes: 150) { setup in
            let full = try await setup.build()
            #expect(full.status == 73, "stderr: \(full.stderr.suffix(2000))")
            expectOutOfInodesMessage(full.stderr, naming: setup.disk.folder)
            let left = try FileManager.default.contentsOfDirectory(atPath: setup.disk.folder.path)
            #expect(left.isEmpty, "no output and no staging folder: \(left)")
            #expect(try setup.savedSnapshots(in: setup.workspace.state).isEmpty)
            try await expectHealsWithMoreInodes(setup)
        }
    }

    @Test("a build on a file system already out of inodes exits 73 at its first folder, naming `df -i`; then it heals")
    func buildOnAFileSystemAlreadyOutOfInodes() async throws {
        try await onASmallDisk("output", seed: 15, inodes: 100) { setup in
            // Every inode taken before the run: its first folder, not a file, is what the file system refuses.
            let made = try setup.disk.fillInodes()
            try #require(made > 0 && made < 100, "filled the inodes with \(made) files")
            let full = try await setup.build()
            #expect(full.status == 73, "stderr: \(full.stderr.suffix(2000))")
            #expect(full.stderr.contains("cannot create \(setup.disk.folder.path)/"), "\(full.stderr)")
            expectOutOfInodesMessage(full.stderr, naming: setup.disk.folder)
            let left = try FileManager.default.contentsOfDirectory(atPath: setup.disk.folder.path)
            #expect(left == ["filler"], "\(left)")
            try setup.disk.free()
            try await expectHealsWithMoreInodes(setup)
        }
    }

    @Test("a first build on a full disk exits 73 and leaves no output, no staging folder and no snapshot")
    func firstBuildOnAFullDisk() async throws {
        try await onASmallDisk("output", seed: 12) { setup in
            try setup.disk.fill()
            let full = try await setup.build()
            #expect(full.status == 73, "stderr: \(full.stderr.suffix(2000))")
            expectDiskFullMessage(full.stderr, naming: setup.disk.folder)
            let left = try FileManager.default.contentsOfDirectory(atPath: setup.disk.folder.path)
            #expect(left == ["filler"], "\(left)")
            #expect(try setup.savedSnapshots(in: setup.workspace.state).isEmpty)

            try setup.disk.free()
            let healed = try await setup.build()
            #expect(healed.status == 0, "stderr: \(healed.stderr.suffix(2000))")
            #expect(try publishedIds(in: setup.folder) == Set(await setup.sandbox.users.map(\.id)))
        }
    }

    /// The state on the disk that fills, the output elsewhere. Full before the run, the run lock cannot be written:
    /// exit 73 (a state folder that cannot be written), not 4 (another run), and the site stays as it was. Full during
    /// the run, after the site is out: the site is published, the snapshot is not, and the run says so with exit 73;
    /// the delta link is not moved on either, so the next run with room records the same change.
    @Test("a full state disk exits 73, before the run or after the publish, saying which; the next run catches up")
    func stateOnAFullDisk() async throws {
        try await onASmallDisk("state", seed: 13) { setup in
            let (state, disk, workspace) = (setup.folder, setup.disk, setup.workspace)
            #expect(try await setup.build().status == 0)
            let snapshots = try setup.savedSnapshots(in: state)
            let mover = try await setup.sandbox.retitle(0, as: "Keeper of the State")
            let site = try workspace.outputFingerprint()

            try disk.fill()
            let locked = try await setup.build()
            #expect(locked.status == 73, "stderr: \(locked.stderr.suffix(2000))")
            expectDiskFullMessage(locked.stderr, naming: disk.folder)
            #expect(locked.stderr.contains("cannot take the run lock"), "\(locked.stderr)")
            #expect(try workspace.outputFingerprint() == site, "the published site changed")

            try disk.free()
            try disk.fill(leaving: 64)
            let late = try await setup.build()
            #expect(late.status == 73, "stderr: \(late.stderr.suffix(2000))")
            expectDiskFullMessage(late.stderr, naming: disk.folder)
            #expect(
                late.stderr.contains("the site was published, but the snapshot could not be saved"), "\(late.stderr)")
            #expect(try publishedJobTitles(in: workspace.output)[mover.id] == "Keeper of the State")
            #expect(try setup.savedSnapshots(in: state) == snapshots, "no snapshot is saved, not even part of one")

            try disk.free()
            let healed = try await setup.build()
            #expect(healed.status == 0, "stderr: \(healed.stderr.suffix(2000))")
            #expect(try setup.savedSnapshots(in: state).count == snapshots.count + 1)
            let change = try await OrgDirProcess.run(
                ["diff", "--state", state.path, "--format", "json"], in: workspace.folder)
            #expect(change.status == 1, "the change is recorded against the last saved snapshot: \(change.stderr)")
            #expect(change.stdout.contains(mover.id))
            #expect(try publishedJobTitles(in: workspace.output)[mover.id] == "Keeper of the State")
        }
    }

    @Test(
        "a read-only output exits 73 naming the folder it could not make there; the site stays and the next run heals")
    func readOnlyOutput() async throws {
        try await onASmallDisk("output", seed: 14) { setup in
            #expect(try await setup.build().status == 0)
            let mover = try await setup.sandbox.retitle(0, as: "Keeper of the Read-Only")
            let site = try filesWithBytes(under: setup.folder)
            let snapshots = try setup.savedSnapshots(in: setup.workspace.state)

            try setup.disk.remount(readOnly: true)
            let refused = try await setup.build()
            try setup.disk.remount(readOnly: false)
            #expect(refused.status == 73, "stderr: \(refused.stderr.suffix(2000))")
            #expect(refused.stderr.contains("cannot create \(setup.disk.folder.path)/"), "\(refused.stderr)")
            #expect(refused.stderr.contains("Read-only file system"), "\(refused.stderr)")
            #expect(refused.stderr.contains("must be on a writable file system"), "with what to do: \(refused.stderr)")
            #expect(try filesWithBytes(under: setup.folder) == site, "the published site changed")
            #expect(try setup.savedSnapshots(in: setup.workspace.state) == snapshots)

            let healed = try await setup.build()
            #expect(healed.status == 0, "stderr: \(healed.stderr.suffix(2000))")
            #expect(try publishedJobTitles(in: setup.folder)[mover.id] == "Keeper of the Read-Only")
        }
    }

    /// A state folder on a file system that turned read-only: the run cannot take its lock, says why and what to do
    /// (exit 73, not 4: no other run holds it), and leaves the site alone.
    @Test("a read-only state folder exits 73 at the run lock, saying it is read-only; the site stays; then it heals")
    func readOnlyState() async throws {
        try await onASmallDisk("state", seed: 16) { setup in
            #expect(try await setup.build().status == 0)
            let mover = try await setup.sandbox.retitle(0, as: "Keeper of the Read-Only State")
            let site = try setup.workspace.outputFingerprint()
            let snapshots = try setup.savedSnapshots(in: setup.folder)

            try setup.disk.remount(readOnly: true)
            let refused = try await setup.build()
            try setup.disk.remount(readOnly: false)
            #expect(refused.status == 73, "stderr: \(refused.stderr.suffix(2000))")
            #expect(refused.stderr.contains("cannot take the run lock"), "\(refused.stderr)")
            #expect(refused.stderr.contains("Read-only file system"), "\(refused.stderr)")
            #expect(refused.stderr.contains("must be on a writable file system"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("another orgdir run"), "\(refused.stderr)")
            #expect(try setup.workspace.outputFingerprint() == site, "the published site changed")
            #expect(try setup.savedSnapshots(in: setup.folder) == snapshots)

            let healed = try await setup.build()
            #expect(healed.status == 0, "stderr: \(healed.stderr.suffix(2000))")
            #expect(try publishedJobTitles(in: setup.workspace.output)[mover.id] == "Keeper of the Read-Only State")
        }
    }

    /// A folder of the same file system bind-mounted where the site goes has its parent's device, so comparing devices
    /// does not see it; the kernel's own word (statx) does, and the run refuses it before rendering, as it does a
    /// share's mount point, instead of rendering everything and failing the swap with EBUSY.
    @Test("a bind-mounted output is refused before anything is rendered, by config check and by a nightly")
    func bindMountedOutput() async throws {
        try await withTenantRun(SandboxConfiguration(userCount: 50, seed: 17)) { run in
            let workspace = run.workspace
            #expect(try await run.build().status == 0)
            let mover = try await run.sandbox.retitle(0, as: "Keeper of the Bind Mount")
            let site = try filesWithBytes(under: workspace.output)

            try SmallFileSystem.bind(workspace.output)
            let checked = try await OrgDirProcess.run(
                ["config", "check", "--config", run.settings.path], in: workspace.folder)
            let refused = try await run.build()
            SmallFileSystem.unmount(workspace.output)
            #expect(checked.status == 73, "stderr: \(checked.stderr)")
            #expect(checked.stderr.contains("\(workspace.output.path) is a mount point"), "\(checked.stderr)")
            #expect(refused.status == 73, "stderr: \(refused.stderr.suffix(2000))")
            #expect(refused.stderr.contains("\(workspace.output.path) is a mount point"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("Device or resource busy"), "refused before the swap: \(refused.stderr)")
            #expect(try filesWithBytes(under: workspace.output) == site, "the published site changed")
            let beside = try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path)
            #expect(!beside.contains { $0.contains("staging") }, "nothing was rendered: \(beside)")

            let healed = try await run.build()
            #expect(healed.status == 0, "stderr: \(healed.stderr.suffix(2000))")
            #expect(try publishedJobTitles(in: workspace.output)[mover.id] == "Keeper of the Bind Mount")
        }
    }

    /// An admin who mounts a share where the site should go and names the mount point as the output: no site can be
    /// renamed onto a mount point, so the run says so before it renders anything, and a folder inside it works.
    @Test("an output that is a mount point is refused before anything is rendered; a folder inside it publishes")
    func outputOnAMountPoint() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let disk = try SmallFileSystem(in: workspace.folder, megabytes: 24)
        defer { disk.unmount() }
        let configuration = SandboxConfiguration(userCount: 50, seed: 15)
        try await withSandbox(configuration) { _, url in
            let environment = ["ORGDIR_CLIENT_SECRET": configuration.clientSecret]
            let settings = try workspace.writeSettings(
                sandbox: url, tenant: configuration.tenantId, clientId: configuration.clientId,
                extra: [("output", "<string>\(disk.folder.path)</string>")])
            let checked = try await OrgDirProcess.run(
                ["config", "check", "--config", settings.path], in: workspace.folder)
            #expect(checked.status == 73, "stderr: \(checked.stderr)")
            #expect(checked.stderr.contains("\(disk.folder.path) is a mount point"), "\(checked.stderr)")
            let refused = try await OrgDirProcess.run(
                ["build", "--config", settings.path], in: workspace.folder, environment: environment)
            #expect(refused.status == 73, "stderr: \(refused.stderr.suffix(2000))")
            #expect(refused.stderr.contains("\(disk.folder.path) is a mount point"), "\(refused.stderr)")
            #expect(refused.stderr.contains("\(disk.folder.path)/site"), "\(refused.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.folder.path).isEmpty)
            let beside = try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path)
            #expect(!beside.contains { $0.contains("staging") }, "nothing was rendered: \(beside)")

            let inside = disk.folder.appendingPathComponent("site")
            let published = try await OrgDirProcess.run(
                ["build", "--config", settings.path, "--output", inside.path], in: workspace.folder,
                environment: environment)
            #expect(published.status == 0, "stderr: \(published.stderr.suffix(2000))")
            #expect(try publishedIds(in: inside).count == 50)
        }
    }
}
