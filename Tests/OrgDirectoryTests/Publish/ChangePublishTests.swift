import Foundation
import Testing

@testable import OrgDirectory

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Publishing only what changed: a folder of changes moved into the published site under a journal.
@Suite("Publishing changed files into the published site")
struct ChangePublishTests {
    /// A published site of `files` (path → text) under `root/Output`, made by a whole-site publish.
    static func publishedSite(_ files: [String: String], in root: URL) throws -> SitePublisher {
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        let staging = try publisher.makeStaging()
        for (path, text) in files { try staging.write(Array(text.utf8), to: path) }
        try publisher.publish(staging, generatedAt: Date())
        return publisher
    }

    /// Every file under `folder` (relative path → bytes and inode), the marker aside.
    static func contents(of folder: URL) throws -> [String: (text: String, inode: UInt64)] {
        var found: [String: (String, UInt64)] = [:]
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let path = walker?.nextObject() as? String {
            var info = stat()
            let full = folder.appendingPathComponent(path).path
            guard path != SitePublisher.markerName, lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                continue
            }
            found[path] = (try String(contentsOfFile: full, encoding: .utf8), UInt64(info.st_ino))
        }
        return found
    }

    /// The texts of `contents(of:)`, for comparing sites by what they hold.
    static func texts(of folder: URL) throws -> [String: String] {
        try contents(of: folder).mapValues(\.text)
    }

    /// Files and inodes compared: the site is exactly as it was, no file replaced by an equal copy.
    static func expectUntouched(_ folder: URL, as before: [String: (text: String, inode: UInt64)]) throws {
        let after = try contents(of: folder)
        #expect(after.mapValues(\.text) == before.mapValues(\.text))
        #expect(after.mapValues(\.inode) == before.mapValues(\.inode))
    }

    static let site = [
        "index.html": "index one", "people/a.html": "a", "people/b.html": "b one", "people/c.html": "c",
        "departments/x.html": "x",
    ]

    /// A folder of changes against `site`: b changed, a written equal, c deleted, d added in a new folder.
    static func stageChanges(with publisher: SitePublisher) throws -> StagingDirectory {
        let staging = try publisher.makeChangesStaging()
        try staging.write(Array("a".utf8), to: "people/a.html")
        try staging.write(Array("b two".utf8), to: "people/b.html")
        try staging.write(Array("index two".utf8), to: "index.html")
        try staging.write(Array("d".utf8), to: "teams/d.html")
        #expect(staging.keepInPlace(fileCount: 1), "x stays where it is, unnamed")
        let kept: Set = ["index.html", "people/a.html", "people/b.html", "departments/x.html", "teams/d.html"]
        try staging.removeStale(in: "", skipping: []) { kept.contains($0) }
        return staging
    }

    /// The journal `publishChanges` would write for `staging`, planned without making a move.
    static func plan(_ staging: StagingDirectory, for publisher: SitePublisher) throws -> ChangeJournal {
        try ChangeJournal.plan(
            output: publisher.output.path, staged: staging.rootPath,
            aside: staging.root.deletingLastPathComponent().appendingPathComponent("old").path,
            files: staging.stagedPaths, deleted: staging.deletedPaths)
    }

    static let changedSite = [
        "index.html": "index two", "people/a.html": "a", "people/b.html": "b two", "departments/x.html": "x",
        "teams/d.html": "d",
    ]

    @Test("only files that differ are staged and moved in; an unchanged file keeps its inode; a dropped one goes")
    func changesMovedIn() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        let before = try Self.contents(of: publisher.output)
        let staging = try Self.stageChanges(with: publisher)
        #expect(staging.holdsChangesOnly)
        let staged = try Self.texts(of: staging.root)
        #expect(staged == ["index.html": "index two", "people/b.html": "b two", "teams/d.html": "d"])
        #expect(staging.deletedPaths == ["people/c.html"])
        #expect(staging.counts.written == 3)
        #expect(staging.counts.unchanged == 2)
        try publisher.publishChanges(staging, generatedAt: Date())
        let after = try Self.contents(of: publisher.output)
        #expect(after.mapValues(\.text) == Self.changedSite)
        #expect(after["people/a.html"]?.inode == before["people/a.html"]?.inode)
        #expect(after["departments/x.html"]?.inode == before["departments/x.html"]?.inode)
        #expect(FileManager.default.fileExists(atPath: publisher.output.appendingPathComponent(".orgdir-site").path))
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(names == [".Output.replaced", "Output"], "no update folder and no spare, only what was replaced")
        let replaced = try Self.texts(of: publisher.replaced)
        #expect(replaced == ["index.html": "index one", "people/b.html": "b one"], "kept to be written over")
    }

    @Test("a replaced published file is moved away whole, never written through: a link to it keeps the old bytes")
    func replacedFileNeverWrittenThrough() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        let held = root.appendingPathComponent("held.html")
        #expect(link(publisher.output.appendingPathComponent("people/b.html").path, held.path) == 0)
        try publisher.publishChanges(try Self.stageChanges(with: publisher), generatedAt: Date())
        #expect(try String(contentsOf: held, encoding: .utf8) == "b one")
        #expect(try Self.texts(of: publisher.output)["people/b.html"] == "b two")
    }

    @Test("a move that fails undoes the moves before it: the published site is exactly as it was; the error names it")
    func failedMoveRolledBack() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        let before = try Self.contents(of: publisher.output)
        let staging = try Self.stageChanges(with: publisher)
        let update = staging.root.deletingLastPathComponent()
        var journal = try Self.plan(staging, for: publisher)
        // A last step whose staged file has gone (as a failing disk or a removed folder would make it) cannot be made.
        journal.steps.append(ChangeJournal.Step(kind: .add, inode: 1, path: "people/zz.html"))
        #expect(journal.steps.count == 5)
        do {
            try journal.apply()
            Issue.record("moving a file that is not there succeeded")
        } catch {
            #expect(error.localizedDescription.contains("people/zz.html"), "\(error.localizedDescription)")
            #expect(error.localizedDescription.contains("the previous site is unchanged"))
        }
        try Self.expectUntouched(publisher.output, as: before)
        publisher.discard(staging)
        #expect(!FileManager.default.fileExists(atPath: update.path))
    }

    @Test("without an atomic exchange a replaced file is kept aside by a link first; a failed move still undoes all")
    func linkInsteadOfExchange() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        let before = try Self.contents(of: publisher.output)
        /// The journal of a new folder of changes, made without exchanges.
        func linkingJournal() throws -> (StagingDirectory, ChangeJournal) {
            let staging = try Self.stageChanges(with: publisher)
            var journal = try Self.plan(staging, for: publisher)
            journal.exchanges = false
            return (staging, journal)
        }

        var (staging, journal) = try linkingJournal()
        journal.steps.append(ChangeJournal.Step(kind: .add, inode: 1, path: "people/zz.html"))
        #expect(throws: PublishError.self) { try journal.apply() }
        try Self.expectUntouched(publisher.output, as: before)
        publisher.discard(staging)

        (staging, journal) = try linkingJournal()
        try journal.apply(stoppingAfter: 3)  // a run that died there
        #expect(
            try Self.contents(of: URL(fileURLWithPath: journal.aside))["people/b.html"]?.inode
                == before["people/b.html"]?.inode, "kept aside by a second link")
        #expect(journal.rollBack().isEmpty)
        try Self.expectUntouched(publisher.output, as: before)
        publisher.discard(staging)

        (staging, journal) = try linkingJournal()
        try journal.apply()
        #expect(try Self.texts(of: publisher.output) == Self.changedSite)
        let aside = try Self.texts(of: URL(fileURLWithPath: journal.aside))
        #expect(aside == ["index.html": "index one", "people/b.html": "b one", "people/c.html": "c"])
        publisher.discard(staging)
    }

    /// The next run undoes the moves whichever staging it makes: a nightly's folder of changes, or a whole site (the
    /// run after a crash finds no render fingerprints, cleared before the moves, and stages a whole site).
    @Test(
        "a run that died halfway through its moves is undone by the next run before it stages",
        arguments: [(1, false), (3, false), (4, false), (3, true)])
    func diedHalfwayRecovered(stepsMade: Int, wholeSite: Bool) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        let before = try Self.contents(of: publisher.output)
        let staging = try Self.stageChanges(with: publisher)
        let update = staging.root.deletingLastPathComponent()
        let journal = try Self.plan(staging, for: publisher)
        try Data(journal.encoded()).write(to: update.appendingPathComponent("journal"))
        try journal.apply(stoppingAfter: stepsMade)
        #expect(try Self.texts(of: publisher.output) != Self.site, "some moves were made")
        // The folder of a process that is gone.
        let gone = try Self.finishedProcess()
        let dead = root.appendingPathComponent("\(publisher.updatePrefix)\(gone)-deadbeef")
        try FileManager.default.moveItem(at: update, to: dead)
        let next = wholeSite ? try publisher.makeStaging() : try publisher.makeChangesStaging()
        defer { publisher.discard(next) }
        try Self.expectUntouched(publisher.output, as: before)
        #expect(!FileManager.default.fileExists(atPath: dead.path))
    }

    @Test("an update folder whose journal cannot be read is left for a person to look at, the site untouched")
    func unreadableJournalLeftAlone() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        let before = try Self.contents(of: publisher.output)
        let gone = try Self.finishedProcess()
        let dead = root.appendingPathComponent("\(publisher.updatePrefix)\(gone)-deadbeef")
        try FileManager.default.createDirectory(at: dead, withIntermediateDirectories: false)
        try Data("not a journal".utf8).write(to: dead.appendingPathComponent("journal"))
        let next = try publisher.makeChangesStaging()
        publisher.discard(next)
        #expect(FileManager.default.fileExists(atPath: dead.appendingPathComponent("journal").path))
        try Self.expectUntouched(publisher.output, as: before)
    }

    @Test("the journal reads back as written, paths with spaces included; a cut journal is not read")
    func journalRoundTrip() {
        var journal = ChangeJournal(output: "/o", staged: "/s", aside: "/a")
        journal.steps = [
            .init(kind: .replace, inode: 12, path: "people/a b.html"), .init(kind: .add, inode: 3, path: "x"),
            .init(kind: .addFolder, inode: 4, path: "teams"), .init(kind: .delete, inode: 99, path: "people/c.html"),
        ]
        let bytes = journal.encoded()
        #expect(ChangeJournal.decode(bytes, output: "/o", staged: "/s", aside: "/a") == journal)
        #expect(ChangeJournal.decode(Array(bytes.dropLast()), output: "/o", staged: "/s", aside: "/a") == nil)
        #expect(ChangeJournal.decode(Array(bytes.dropFirst()), output: "/o", staged: "/s", aside: "/a") == nil)
    }

    @Test("a folder where the new site has a file is moved aside whole, and put back when a later move fails")
    func folderReplacedByFile() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(["index.html": "i", "about/team.html": "t"], in: root)
        let before = try Self.contents(of: publisher.output)
        let staging = try publisher.makeChangesStaging()
        try staging.write(Array("now a page".utf8), to: "about")
        try staging.write(Array("i2".utf8), to: "index.html")
        try staging.removeStale(in: "", skipping: []) { ["about", "index.html"].contains($0) }
        var journal = try Self.plan(staging, for: publisher)
        journal.steps.append(ChangeJournal.Step(kind: .add, inode: 1, path: "missing.html"))
        #expect(throws: PublishError.self) { try journal.apply() }
        try Self.expectUntouched(publisher.output, as: before)
        publisher.discard(staging)

        let again = try publisher.makeChangesStaging()
        try again.write(Array("now a page".utf8), to: "about")
        try again.write(Array("i2".utf8), to: "index.html")
        try again.removeStale(in: "", skipping: []) { ["about", "index.html"].contains($0) }
        try publisher.publishChanges(again, generatedAt: Date())
        #expect(try Self.texts(of: publisher.output) == ["about": "now a page", "index.html": "i2"])
    }

    @Test("the plan moves only the files this run staged: a stray file or folder in the folder of changes stays out")
    func planTakesOnlyStagedFiles() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        let staging = try Self.stageChanges(with: publisher)
        // What an earlier update could have left there, not yet dropped.
        try Data("stray".utf8).write(to: staging.root.appendingPathComponent("people/stray.html"))
        try FileManager.default.createDirectory(
            at: staging.root.appendingPathComponent("old-team"), withIntermediateDirectories: true)
        try Data("stray".utf8).write(to: staging.root.appendingPathComponent("old-team/e.html"))
        let journal = try Self.plan(staging, for: publisher)
        #expect(Set(journal.steps.map(\.path)) == ["index.html", "people/b.html", "people/c.html", "teams"])
        #expect(journal.steps.map(\.kind) == [.replace, .addFolder, .replace, .delete], "subfolders first, then files")
        publisher.discard(staging)
    }

    @Test("a published file where this run stages a folder is deleted once, by the step that moves the folder in")
    func fileReplacedByFolderPlannedOnce() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(["index.html": "i", "about": "a page"], in: root)
        let staging = try publisher.makeChangesStaging()
        try staging.removeStale(in: "", skipping: []) { $0 == "index.html" }
        #expect(staging.deletedPaths == ["about"])
        try staging.write(Array("t".utf8), to: "about/team.html")
        let journal = try Self.plan(staging, for: publisher)
        #expect(journal.steps.map(\.kind) == [.delete, .addFolder])
        #expect(journal.steps.map(\.path) == ["about", "about"])
        try publisher.publishChanges(staging, generatedAt: Date())
        #expect(try Self.texts(of: publisher.output) == ["about/team.html": "t", "index.html": "i"])
    }

    @Test("a spare kept by whole-site publishing is removed once changes are moved in instead")
    func spareRemoved() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        let staging = try publisher.makeStaging()
        for (path, text) in Self.site { try staging.write(Array(text.utf8), to: path) }
        try publisher.publish(staging, generatedAt: Date(), keepingSpare: true)
        #expect(FileManager.default.fileExists(atPath: publisher.spare.path))
        try publisher.publishChanges(try Self.stageChanges(with: publisher), generatedAt: Date())
        #expect(!FileManager.default.fileExists(atPath: publisher.spare.path))
        #expect(try Self.texts(of: publisher.output) == Self.changedSite)
    }

    @Test("the next update writes over the files the last one replaced, reusing them, and moves in only its own")
    func replacedFilesWrittenOver() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        try publisher.publishChanges(try Self.stageChanges(with: publisher), generatedAt: Date())
        let kept = try Self.contents(of: publisher.replaced)
        let staging = try publisher.makeChangesStaging()
        #expect(staging.holdsChangesOnly && staging.holdsEarlierFiles && !staging.isRecycled)
        #expect(!FileManager.default.fileExists(atPath: publisher.replaced.path), "taken as the folder of changes")
        try staging.write(Array("b three".utf8), to: "people/b.html")
        try staging.write(Array("b three".utf8), to: "people/b.html")  // written twice, counted once
        try staging.write(Array("index two".utf8), to: "index.html")  // equal to the published one
        #expect(staging.counts.written == 1)
        #expect(staging.counts.unchanged == 1)
        try publisher.publishChanges(staging, generatedAt: Date())
        let after = try Self.contents(of: publisher.output)
        #expect(after.mapValues(\.text) == Self.changedSite.merging(["people/b.html": "b three"]) { $1 })
        #expect(after["people/b.html"]?.inode == kept["people/b.html"]?.inode, "the replaced file was written over")
        #expect(try Self.texts(of: publisher.replaced) == ["people/b.html": "b two"])
    }

    @Test("a first build's copies of its top-level files and list pages are the first update's files to write over")
    func copiesKeptForTheFirstUpdate() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let site = [
            "index.html": "index one", "people.csv": "id\n1\n", "people/a.html": "a", "browse/a.html": "browse a",
            "departments/x.html": "x",
        ]
        let publisher = try Self.publishedSite(site, in: root)
        try "Options -Indexes\n".write(
            to: publisher.output.appendingPathComponent(".htaccess"), atomically: false, encoding: .utf8)
        #expect(publisher.keepCopiesForFirstUpdate(folders: ["browse", "departments", "teams"]) == 4)
        let copies = try Self.contents(of: publisher.replaced)
        #expect(
            copies.mapValues(\.text) == [
                "index.html": "index one", "people.csv": "id\n1\n", "browse/a.html": "browse a",
                "departments/x.html": "x",
            ], "no person page, no dotfile, no folder that is not there")
        #expect(publisher.isOrgdirFolder(publisher.replaced))
        #expect(publisher.keepCopiesForFirstUpdate(folders: ["browse"]) == 0, "a folder there is left as it is")

        let staging = try publisher.makeChangesStaging()
        #expect(staging.holdsChangesOnly && staging.holdsEarlierFiles)
        try staging.write(Array("index two".utf8), to: "index.html")
        try staging.write(Array("browse a".utf8), to: "browse/a.html")  // equal to the published page
        try staging.write(Array("a two".utf8), to: "people/a.html")
        try staging.removeStale(in: "", skipping: []) { _ in true }
        #expect(staging.counts.written == 2)
        try publisher.publishChanges(staging, generatedAt: Date(), wholeSiteShare: 0.9, wholeSiteMinimum: 100)
        let after = try Self.contents(of: publisher.output)
        #expect(
            after.mapValues(\.text)
                == site.merging(
                    ["index.html": "index two", "people/a.html": "a two", ".htaccess": "Options -Indexes\n"]) { $1 })
        #expect(after["index.html"]?.inode == copies["index.html"]?.inode, "the copy was written over")
        #expect(
            try Self.texts(of: publisher.replaced) == ["index.html": "index one", "people/a.html": "a"],
            "copies the update did not write were swept, never moved in")
    }

    @Test(
        "copies stop at a file that cannot be copied; the marked folder left is still the first update's to write over")
    func copiesStopAtAFileTheyCannotCopy() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(["index.html": "index one", "people.csv": "id\n1\n"], in: root)
        // Something no copy can be made of (a FIFO, opened without waiting for a writer) among the top-level files.
        #expect(mkfifo(publisher.output.appendingPathComponent("pipe").path, 0o644) == 0)
        #expect(publisher.keepCopiesForFirstUpdate(folders: ["browse"]) < 3)
        #expect(publisher.isOrgdirFolder(publisher.replaced), "the marker is written before any copy")
        #expect(!FileManager.default.fileExists(atPath: publisher.replaced.appendingPathComponent("pipe").path))
        unlink(publisher.output.appendingPathComponent("pipe").path)

        let staging = try publisher.makeChangesStaging()
        #expect(staging.holdsEarlierFiles)
        try staging.write(Array("index two".utf8), to: "index.html")
        try staging.removeStale(in: "", skipping: []) { _ in true }
        try publisher.publishChanges(staging, generatedAt: Date(), wholeSiteShare: 0.9, wholeSiteMinimum: 100)
        #expect(try Self.texts(of: publisher.output) == ["index.html": "index two", "people.csv": "id\n1\n"])
    }

    @Test("a run that changed most files links the rest into its folder of changes and swaps the whole site in")
    func mostFilesChangedSwapsWholeSite() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        try "Options -Indexes\n".write(
            to: publisher.output.appendingPathComponent(".htaccess"), atomically: false, encoding: .utf8)
        let before = try Self.contents(of: publisher.output)
        var outputInode = stat()
        #expect(lstat(publisher.output.path, &outputInode) == 0)
        let staging = try Self.stageChanges(with: publisher)
        #expect(try publisher.publishChanges(staging, generatedAt: Date(), wholeSiteShare: 0.5, wholeSiteMinimum: 1))
        let after = try Self.contents(of: publisher.output)
        #expect(after.mapValues(\.text) == Self.changedSite.merging([".htaccess": "Options -Indexes\n"]) { $1 })
        #expect(after["people/a.html"]?.inode == before["people/a.html"]?.inode, "an unchanged file is linked")
        #expect(after[".htaccess"]?.inode == before[".htaccess"]?.inode)
        var swapped = stat()
        #expect(lstat(publisher.output.path, &swapped) == 0 && swapped.st_ino != outputInode.st_ino, "a new folder")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(names == ["Output"], "no update folder, no spare and no replaced files are left")
    }

    @Test("a run that changed few files moves them in, the published folder staying the same folder")
    func fewFilesChangedMovedIn() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.publishedSite(Self.site, in: root)
        var outputInode = stat()
        #expect(lstat(publisher.output.path, &outputInode) == 0)
        let staging = try Self.stageChanges(with: publisher)
        #expect(try !publisher.publishChanges(staging, generatedAt: Date(), wholeSiteShare: 0.9, wholeSiteMinimum: 1))
        var after = stat()
        #expect(lstat(publisher.output.path, &after) == 0 && after.st_ino == outputInode.st_ino)
        #expect(try Self.texts(of: publisher.output) == Self.changedSite)
    }

    /// The id of a process that has ended (and been waited for), so no process has it for a while.
    static func finishedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
