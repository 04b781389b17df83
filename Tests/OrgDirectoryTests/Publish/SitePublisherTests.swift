import Foundation
import Testing

@testable import OrgDirectory

/// A fresh temporary folder for one test.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func modificationDate(_ url: URL) throws -> Date? {
    try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
}

@Suite("Publishing")
struct SitePublisherTests {
    @Test("a first publish creates the output with the marker")
    func firstPublish() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        let staging = try publisher.makeStaging()
        try staging.write(Array("hello".utf8), to: "people/a.html")
        try publisher.publish(staging, generatedAt: Date())
        let page = root.appendingPathComponent("Output/people/a.html")
        #expect(try String(contentsOf: page, encoding: .utf8) == "hello")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Output/.orgdir-site").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(leftovers == ["Output"])
    }

    @Test("an unchanged file keeps its modification time; a changed one is rewritten; a dropped one disappears")
    func writeOnlyWhatChanged() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("Output")
        let publisher = SitePublisher(output: output)
        var staging = try publisher.makeStaging()
        try staging.write(Array("same".utf8), to: "a.html")
        try staging.write(Array("old".utf8), to: "b.html")
        try staging.write(Array("gone".utf8), to: "c.html")
        try publisher.publish(staging, generatedAt: Date())
        let before = try modificationDate(output.appendingPathComponent("a.html"))
        Thread.sleep(forTimeInterval: 1.1)
        staging = try publisher.makeStaging()
        try staging.write(Array("same".utf8), to: "a.html")
        try staging.write(Array("new".utf8), to: "b.html")
        try publisher.publish(staging, generatedAt: Date())
        #expect(try modificationDate(output.appendingPathComponent("a.html")) == before)
        #expect(try String(contentsOf: output.appendingPathComponent("b.html"), encoding: .utf8) == "new")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("c.html").path))
        #expect(staging.counts.written == 1)
        #expect(staging.counts.unchanged == 1)
    }

    @Test("a file written in pieces lands whole; equal to the published one it is carried over as a link")
    func piecesCarriedOverWhenEqual() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("Output")
        let publisher = SitePublisher(output: output)
        // Three pieces spanning more than one comparison buffer, so the chunked compare is exercised.
        let pieces = [
            [UInt8](repeating: 0x61, count: 700_000), [UInt8](repeating: 0x62, count: 700_000), Array("end\n".utf8),
        ]
        let emitAll: ([[UInt8]]) -> SitePieceProducer = { list in { emit in for piece in list { try emit(piece) } } }
        var staging = try publisher.makeStaging()
        try staging.write(to: "people.csv", pieces: emitAll(pieces))
        try staging.write(to: "people.json", pieces: emitAll(pieces))
        try publisher.publish(staging, generatedAt: Date())
        let published = try Data(contentsOf: output.appendingPathComponent("people.csv"))
        #expect(published == Data(pieces.joined()))
        let inode =
            try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("people.csv").path)[
                .systemFileNumber] as? Int

        staging = try publisher.makeStaging()
        try staging.write(to: "people.csv", pieces: emitAll(pieces))
        var changed = pieces
        changed[1][699_999] = 0x63
        try staging.write(to: "people.json", pieces: emitAll(changed))
        try publisher.publish(staging, generatedAt: Date())
        #expect(staging.counts.unchanged == 1)
        #expect(staging.counts.written == 1)
        let after =
            try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("people.csv").path)[
                .systemFileNumber] as? Int
        #expect(after == inode, "the unchanged export is the published file itself, linked")
        #expect(try Data(contentsOf: output.appendingPathComponent("people.json")) == Data(changed.joined()))
    }

    @Test("a producer that fails midway fails the write with its error")
    func failingProducer() throws {
        struct Broken: Error {}
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let staging = try SitePublisher(output: root.appendingPathComponent("Output")).makeStaging()
        #expect(throws: Broken.self) {
            try staging.write(to: "people.csv") { emit in
                try emit(Array("half".utf8))
                throw Broken()
            }
        }
    }

    @Test("a folder orgdir did not make is never replaced")
    func foreignOutput() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try "precious".write(to: root.appendingPathComponent("thesis.tex"), atomically: true, encoding: .utf8)
        #expect(throws: PublishError.foreignOutput(path: root.path)) {
            try SitePublisher(output: root).makeStaging()
        }
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("thesis.tex").path))
    }

    @Test("an output path that names a file is refused as not a folder, and the file is left alone")
    func outputIsAFile() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("site")
        try "not a folder".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: PublishError.outputNotAFolder(path: file.path)) {
            try SitePublisher(output: file).makeStaging()
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "not a folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["site"])
    }

    @Test("a mount point is told from a folder, a symbolic link to a mount point is not one, a missing path is not one")
    func mountPoints() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let link = root.appendingPathComponent("proc-link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/proc")
        #expect(SitePublisher.isMountPoint(URL(fileURLWithPath: "/proc")))
        #expect(!SitePublisher.isMountPoint(folder))
        #expect(!SitePublisher.isMountPoint(link), "renaming a link renames the link, never the mount behind it")
        #expect(!SitePublisher.isMountPoint(root.appendingPathComponent("missing")))
    }

    @Test(
        "paths that could escape the staging folder are refused",
        arguments: ["../x", "/etc/passwd", "a/../../b", "", "a//b", "./a", "a/", "a\0b", "..", ".", "a/.", "a/.."])
    func unsafePaths(path: String) throws {
        #expect(throws: PublishError.self) { try StagingDirectory.parentFolder(of: path) }
    }

    @Test(
        "a safe path's folder is everything before its last slash (writing and carrying over share the check)",
        arguments: [
            ("people/ada.html", "people"), ("x", ""), ("a/b/c.js", "a/b"), ("a/.b", "a"), ("..a/x", "..a"),
            ("dépôt/é.html", "dépôt"),
        ])
    func parentFolder(path: String, folder: String) throws {
        #expect(try String(StagingDirectory.parentFolder(of: path)) == folder)
    }

    @Test("a carried-over file is a hard link to the published one; a missing one carries nothing over")
    func carryOver() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("Output")
        let publisher = SitePublisher(output: output)
        var staging = try publisher.makeStaging()
        #expect(!staging.carryOver(["people/a.html"]), "a first run has nothing to carry over")
        try staging.write(Array("a".utf8), to: "people/a.html")
        try staging.write(Array("b".utf8), to: "people/b.html")
        try publisher.publish(staging, generatedAt: Date())
        let page = output.appendingPathComponent("people/a.html").path
        let before = try FileManager.default.attributesOfItem(atPath: page)
        staging = try publisher.makeStaging()
        #expect(staging.carryOver(["people/a.html", "people/b.html"]))
        #expect(!staging.carryOver(["people/c.html"]))
        #expect(!staging.carryOver(["people/b.html", "people/missing.html"]), "b is linked already")
        try publisher.publish(staging, generatedAt: Date())
        let after = try FileManager.default.attributesOfItem(atPath: page)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(try String(contentsOf: output.appendingPathComponent("people/b.html"), encoding: .utf8) == "b")
        #expect(staging.counts.unchanged == 2)
    }

    @Test("a discarded staging folder leaves the published site as it was")
    func discard() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("Output")
        let publisher = SitePublisher(output: output)
        let first = try publisher.makeStaging()
        try first.write(Array("v1".utf8), to: "index.html")
        try publisher.publish(first, generatedAt: Date())
        let second = try publisher.makeStaging()
        try second.write(Array("v2".utf8), to: "index.html")
        publisher.discard(second)
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8) == "v1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["Output"])
    }
}

@Suite("Local rules")
struct LocalRulesTests {
    static let people = [
        User(
            id: "1", userPrincipalName: "ada@c.com", displayName: "Ada", givenName: "Ada", mail: "ada@c.com",
            accountEnabled: true, userType: "Member"),
        User(
            id: "2", userPrincipalName: "off@c.com", displayName: "Off", givenName: "Off", mail: "off@c.com",
            accountEnabled: false),
        User(
            id: "3", userPrincipalName: "g_x.com#EXT#@c.onmicrosoft.com", displayName: "Guest", givenName: "G",
            mail: "g@x.com", userType: "Guest"),
        User(
            id: "4", userPrincipalName: "room401@c.com", displayName: "Room 4.01", mail: "room401@c.com",
            accountEnabled: false),
        User(id: "5", userPrincipalName: "nocontact@c.com", displayName: "No Contact", givenName: "No"),
        User(id: "6", userPrincipalName: "Boss@c.com", displayName: "Boss", givenName: "B", mail: "boss@c.com"),
    ]

    @Test("each rule removes its people and is counted")
    func rules() {
        let rules = LocalRules(
            excludeDisabled: true, excludeGuests: true, excludeWithoutContact: true, excludeResources: true,
            excludeUsers: ["boss@c.com"])
        let (kept, removed) = rules.apply(to: Self.people)
        #expect(kept.map(\.id) == ["1"])
        #expect(removed == [.disabled: 2, .guest: 1, .withoutContact: 1, .excludedByName: 1])
    }

    @Test("rules applied in place keep the order of who stays; with no rule on, everyone stays untouched")
    func inPlace() {
        var people = Self.people
        let removed = LocalRules(excludeDisabled: true, excludeUsers: ["ada@c.com"]).apply(removingFrom: &people)
        #expect(people.map(\.id) == ["3", "5", "6"])
        #expect(removed == [.excludedByName: 1, .disabled: 2])
        var everyone = Self.people
        #expect(LocalRules().apply(removingFrom: &everyone).isEmpty)
        #expect(everyone == Self.people)
        #expect(!LocalRules().isActive)
        #expect(LocalRules(includeOnlyUsers: []).isActive, "an empty include list leaves nobody: it is a rule")
    }

    @Test("include-only keeps just the listed UPNs, case-insensitively")
    func includeOnly() {
        let rules = LocalRules(includeOnlyUsers: ["ada@c.com", "boss@c.com"])
        #expect(rules.apply(to: Self.people).kept.map(\.id) == ["1", "6"])
    }

    @Test("rooms and shared mailboxes are recognised without catching people")
    func resourceHeuristic() {
        #expect(Self.people[3].isLikelyResource)
        #expect(!Self.people[0].isLikelyResource)
        #expect(
            User(
                id: "x", userPrincipalName: "shared.payroll@c.com", displayName: "Shared: Payroll", accountEnabled: true
            ).isLikelyResource)
        #expect(
            !User(id: "y", userPrincipalName: "prince@c.com", displayName: "Prince", accountEnabled: true)
                .isLikelyResource)
    }
}

/// The spare: the site a publish replaced, kept beside the output and updated in place into a later site.
@Suite("Publishing into the recycled spare")
struct SpareRecyclingTests {
    /// Publishes `files` (path → text) through a staging folder that recycles the spare when asked.
    static func publish(
        _ files: [String: String], with publisher: SitePublisher, recycling: Bool = false, keepingSpare: Bool = true
    ) throws -> StagingDirectory {
        let staging = try publisher.makeStaging(recyclingSpare: recycling)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) { try staging.write(Array(text.utf8), to: path) }
        try staging.removeStale { files[$0] != nil }
        try publisher.publish(staging, generatedAt: Date(), keepingSpare: keepingSpare)
        return staging
    }

    static func text(_ output: URL, _ path: String) throws -> String {
        try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
    }

    static func inode(_ url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
    }

    @Test("the replaced site becomes the spare, and the next staging folder starts as it")
    func spareKeptAndRecycled() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        _ = try Self.publish(["index.html": "one"], with: publisher)
        #expect(!FileManager.default.fileExists(atPath: publisher.spare.path), "a first publish replaces nothing")
        _ = try Self.publish(["index.html": "two"], with: publisher)
        #expect(try Self.text(publisher.spare, "index.html") == "one")
        let staging = try Self.publish(["index.html": "three"], with: publisher, recycling: true)
        #expect(staging.isRecycled)
        #expect(try Self.text(publisher.output, "index.html") == "three")
        #expect(try Self.text(publisher.spare, "index.html") == "two")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(names == [".Output.spare", "Output"], "no staging folder is left behind")
    }

    @Test("writing into the spare never changes a published file it shares through a hard link")
    func sharedFilesReplaced() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        _ = try Self.publish(["a.html": "same", "b.html": "same"], with: publisher)
        _ = try Self.publish(["a.html": "same", "b.html": "same"], with: publisher)
        let published = publisher.output.appendingPathComponent("a.html")
        #expect(try Self.inode(published) == Self.inode(publisher.spare.appendingPathComponent("a.html")))
        let staging = try publisher.makeStaging(recyclingSpare: true)
        try staging.write(Array("new".utf8), to: "a.html")
        #expect(staging.carryOver(["b.html"]), "carrying over a file the spare already shares is fine")
        #expect(try Self.text(publisher.output, "a.html") == "same")
        try publisher.publish(staging, generatedAt: Date(), keepingSpare: true)
        #expect(try Self.text(publisher.output, "a.html") == "new")
        #expect(try Self.text(publisher.spare, "a.html") == "same")
        #expect(staging.counts.written == 1)
    }

    @Test("a spare's file with no other link is written over in place; one shared with the published site is replaced")
    func unsharedFilesOverwrittenInPlace() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        _ = try Self.publish(["own.html": "one, longer than what replaces it", "shared.html": "same"], with: publisher)
        _ = try Self.publish(["own.html": "two", "shared.html": "same"], with: publisher)
        let spareOwn = publisher.spare.appendingPathComponent("own.html")
        let spareShared = publisher.spare.appendingPathComponent("shared.html")
        let publishedShared = publisher.output.appendingPathComponent("shared.html")
        let sharedInode = try Self.inode(spareShared)
        #expect(try sharedInode == Self.inode(publishedShared), "the spare shares this one with the published site")
        // Open on the spare's own file: written over in place, the same file shows the new bytes; replaced, it would
        // still show the old ones (an inode number alone can be reused by the file that replaces it).
        let before = try FileHandle(forReadingFrom: spareOwn)
        defer { try? before.close() }
        let staging = try publisher.makeStaging(recyclingSpare: true)
        try staging.write(Array("three".utf8), to: "own.html")
        try before.seek(toOffset: 0)
        #expect(try before.readToEnd() == Data("three".utf8), "written over in place and cut to the new length")
        try staging.write(Array("changed".utf8), to: "shared.html")
        #expect(try Self.text(publisher.output, "shared.html") == "same", "the published file is untouched")
        try publisher.publish(staging, generatedAt: Date(), keepingSpare: true)
        #expect(try Self.text(publisher.output, "own.html") == "three")
        #expect(try Self.text(publisher.output, "shared.html") == "changed")
        #expect(try Self.inode(publisher.output.appendingPathComponent("shared.html")) != sharedInode)
        #expect(try Self.text(publisher.spare, "shared.html") == "same")
        #expect(staging.counts == (written: 2, unchanged: 0))
    }

    @Test(
        "a file written in pieces over a spare's own file is written in place and cut to its length; a shared one is replaced"
    )
    func piecesOverwrittenInPlace() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        let long = String(repeating: "a,b,c\n", count: 50_000)
        _ = try Self.publish(["people.csv": long, "people.json": "[]"], with: publisher)
        _ = try Self.publish(["people.csv": long + "d,e,f\n", "people.json": "[]"], with: publisher)
        let before = try FileHandle(forReadingFrom: publisher.spare.appendingPathComponent("people.csv"))
        defer { try? before.close() }
        let staging = try publisher.makeStaging(recyclingSpare: true)
        let emit: ([String]) -> SitePieceProducer = { texts in
            { emit in for text in texts { try emit(Array(text.utf8)) } }
        }
        try staging.write(to: "people.csv", pieces: emit(["x,y,z\n", "shorter\n"]))
        try before.seek(toOffset: 0)
        #expect(try before.readToEnd() == Data("x,y,z\nshorter\n".utf8), "written over in place, cut to its length")
        try staging.write(to: "people.json", pieces: emit(["[", "1]"]))
        #expect(
            try Self.text(publisher.output, "people.json") == "[]", "the shared file was replaced, not written through")
        try publisher.publish(staging, generatedAt: Date(), keepingSpare: true)
        #expect(try Self.text(publisher.output, "people.csv") == "x,y,z\nshorter\n")
        #expect(try Self.text(publisher.output, "people.json") == "[1]")
        #expect(try Self.text(publisher.spare, "people.json") == "[]")
        #expect(staging.counts == (written: 2, unchanged: 0))
    }

    /// The other things a spare can hold at a page's path are replaced too, never written through: a FIFO (opening
    /// it to write would block) and a symbolic link (writing would change what it points to).
    @Test("a FIFO or a symbolic link in the spare is replaced by the page, and what the link points to is untouched")
    func oddFilesInTheSpareReplaced() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        _ = try Self.publish(["fifo.html": "1", "link.html": "1"], with: publisher)
        _ = try Self.publish(["fifo.html": "2", "link.html": "2"], with: publisher)
        let outside = root.appendingPathComponent("outside.txt")
        try Data("outside".utf8).write(to: outside)
        for name in ["fifo.html", "link.html"] {
            try FileManager.default.removeItem(at: publisher.spare.appendingPathComponent(name))
        }
        #expect(mkfifo(publisher.spare.appendingPathComponent("fifo.html").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            at: publisher.spare.appendingPathComponent("link.html"), withDestinationURL: outside)
        let staging = try Self.publish(["fifo.html": "3", "link.html": "3"], with: publisher, recycling: true)
        #expect(staging.isRecycled)
        for name in ["fifo.html", "link.html"] {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: publisher.output.appendingPathComponent(name).path)
            #expect(attributes[.type] as? FileAttributeType == .typeRegular, "\(name)")
            #expect(try Self.text(publisher.output, name) == "3")
        }
        #expect(try String(contentsOf: outside, encoding: .utf8) == "outside")
    }

    @Test("a file equal to the published one becomes a link to it, so it keeps its modification time")
    func equalFileLinked() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        _ = try Self.publish(["a.html": "old"], with: publisher)
        _ = try Self.publish(["a.html": "new"], with: publisher)
        let before = try Self.inode(publisher.output.appendingPathComponent("a.html"))
        let staging = try Self.publish(["a.html": "new"], with: publisher, recycling: true)
        #expect(try Self.inode(publisher.output.appendingPathComponent("a.html")) == before)
        #expect(staging.counts == (written: 0, unchanged: 1))
    }

    @Test("what the new site no longer has is swept from the spare; dotfiles follow the published site")
    func staleFilesSwept() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        _ = try Self.publish(["people/gone.html": "x", "old/deep/page.html": "x", "index.html": "1"], with: publisher)
        try "deny".write(to: publisher.output.appendingPathComponent(".htaccess"), atomically: false, encoding: .utf8)
        _ = try Self.publish(["index.html": "2"], with: publisher)
        try FileManager.default.removeItem(at: publisher.output.appendingPathComponent(".htaccess"))
        try "allow".write(to: publisher.output.appendingPathComponent(".well"), atomically: false, encoding: .utf8)
        _ = try Self.publish(["index.html": "3", "people/new.html": "y"], with: publisher, recycling: true)
        let files = try SiteRenderReuseTests.Nightly.files(in: publisher.output).keys.sorted()
        #expect(files == [".orgdir-site", ".well", "index.html", "people/new.html"])
    }

    @Test("keeping files in place counts them, and only a recycled folder can")
    func keepInPlace() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        let first = try publisher.makeStaging()
        #expect(!first.keepsInPlace)
        #expect(!first.keepInPlace(fileCount: 1))
        try first.write(Array("a".utf8), to: "a.html")
        try publisher.publish(first, generatedAt: Date(), keepingSpare: true)
        _ = try Self.publish(["a.html": "a"], with: publisher)
        let staging = try publisher.makeStaging(recyclingSpare: true)
        #expect(staging.keepsInPlace)
        #expect(staging.counts == (written: 0, unchanged: 0), "asking counts nothing")
        #expect(staging.keepInPlace(fileCount: 1))
        #expect(staging.counts == (written: 0, unchanged: 1))
        publisher.discard(staging)
        #expect(!FileManager.default.fileExists(atPath: publisher.spare.path), "a discarded spare is gone")
        #expect(try Self.text(publisher.output, "a.html") == "a")
    }

    @Test("without recycling, a spare left over is removed; a publish not keeping one removes the replaced site")
    func spareDropped() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        _ = try Self.publish(["a.html": "1"], with: publisher)
        _ = try Self.publish(["a.html": "2"], with: publisher)
        #expect(FileManager.default.fileExists(atPath: publisher.spare.path))
        let staging = try publisher.makeStaging()
        #expect(
            !staging.isRecycled && !staging.holdsEarlierFiles, "with the output still there, the spare is not taken")
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.root.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: publisher.spare.path))
        try staging.write(Array("3".utf8), to: "a.html")
        #expect(try !publisher.publish(staging, generatedAt: Date(), keepingSpare: false))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["Output"])
    }

    @Test("a folder at the spare's name that orgdir did not make is never recycled or removed")
    func foreignSpare() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        _ = try Self.publish(["a.html": "1"], with: publisher)
        try FileManager.default.createDirectory(at: publisher.spare, withIntermediateDirectories: true)
        try "mine".write(to: publisher.spare.appendingPathComponent("notes.txt"), atomically: false, encoding: .utf8)
        let staging = try Self.publish(["a.html": "2"], with: publisher, recycling: true)
        #expect(!staging.isRecycled)
        #expect(try Self.text(publisher.spare, "notes.txt") == "mine")
        #expect(try Self.text(publisher.output, "a.html") == "2")
    }
}

/// The spare of an output that is gone (deleted by hand, with or without the state): a first build writes over it
/// instead of removing its files first.
@Suite("A first build over the spare of a deleted output")
struct OrphanedSpareTests {
    /// A publisher whose output was published twice (so the first site is the spare, an `.htaccess` in it) and then
    /// deleted, or with `emptyingOutput` emptied of all but its dotfiles (as `rm -rf Output/*` does).
    static func orphanedSpare(in root: URL, emptyingOutput: Bool = false) throws -> SitePublisher {
        let publisher = SitePublisher(output: root.appendingPathComponent("Output"))
        let first = ["index.html": "one, a longer page", "people/gone.html": "left", "old/deep/page.html": "x"]
        _ = try SpareRecyclingTests.publish(first, with: publisher)
        try "deny".write(to: publisher.output.appendingPathComponent(".htaccess"), atomically: false, encoding: .utf8)
        _ = try SpareRecyclingTests.publish(["index.html": "two"], with: publisher)
        guard emptyingOutput else {
            try FileManager.default.removeItem(at: publisher.output)
            return publisher
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: publisher.output.path)
        where !name.hasPrefix(".") {
            try FileManager.default.removeItem(at: publisher.output.appendingPathComponent(name))
        }
        return publisher
    }

    @Test("the orphaned spare becomes the staging folder, holding earlier files but with no published site")
    func orphanedSpareTaken() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.orphanedSpare(in: root)
        let spareIndex = try SpareRecyclingTests.inode(publisher.spare.appendingPathComponent("index.html"))
        let staging = try publisher.makeStaging()
        #expect(staging.holdsEarlierFiles)
        #expect(!staging.isRecycled, "nothing to compare with: no file is trusted to be current")
        #expect(!staging.keepsInPlace && !staging.keepInPlace(fileCount: 1))
        #expect(!FileManager.default.fileExists(atPath: publisher.spare.path))
        try staging.write(Array("three".utf8), to: "index.html")
        let written = staging.root.appendingPathComponent("index.html")
        #expect(try SpareRecyclingTests.inode(written) == spareIndex, "written over in place, its pages kept")
        #expect(try String(contentsOf: written, encoding: .utf8) == "three", "cut to the new length")
    }

    @Test("what the build does not write is swept, an .htaccess deleted with the output included; nothing else left")
    func orphanedSpareSwept() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.orphanedSpare(in: root)
        let files = ["index.html": "three", "people/new.html": "joined"]
        let staging = try SpareRecyclingTests.publish(files, with: publisher, keepingSpare: true)
        #expect(staging.holdsEarlierFiles)
        let published = try SiteRenderReuseTests.Nightly.files(in: publisher.output)
        #expect(published.keys.sorted() == [".orgdir-site", "index.html", "people/new.html"])
        #expect(try SpareRecyclingTests.text(publisher.output, "index.html") == "three")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(names == ["Output"], "a first publish keeps no spare, and no staging folder is left behind")
    }

    @Test("an orphaned spare's file shared through a hard link is replaced, never written through")
    func sharedFileReplaced() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.orphanedSpare(in: root)
        let backup = root.appendingPathComponent("backup.html")
        try FileManager.default.linkItem(at: publisher.spare.appendingPathComponent("index.html"), to: backup)
        let staging = try publisher.makeStaging()
        try staging.write(Array("three".utf8), to: "index.html")
        #expect(try String(contentsOf: backup, encoding: .utf8) == "one, a longer page")
        #expect(try String(contentsOf: staging.root.appendingPathComponent("index.html"), encoding: .utf8) == "three")
    }

    @Test(
        "an orphaned spare of another layout is written through: a file or a link where a folder goes, a folder where a file goes"
    )
    func otherLayoutReplaced() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.orphanedSpare(in: root)
        let fileManager = FileManager.default
        // In the spare: `search` a file, `people/ada.html` a folder with a page in it, `old` a link to a folder
        // outside the spare.
        let outside = root.appendingPathComponent("outside")
        try fileManager.createDirectory(at: outside, withIntermediateDirectories: true)
        try "keep".write(to: outside.appendingPathComponent("page.html"), atomically: false, encoding: .utf8)
        try "x".write(to: publisher.spare.appendingPathComponent("search"), atomically: false, encoding: .utf8)
        let folderAtPage = publisher.spare.appendingPathComponent("people/ada.html")
        try fileManager.createDirectory(at: folderAtPage, withIntermediateDirectories: true)
        try "x".write(to: folderAtPage.appendingPathComponent("index.html"), atomically: false, encoding: .utf8)
        try fileManager.removeItem(at: publisher.spare.appendingPathComponent("old"))
        try fileManager.createSymbolicLink(
            at: publisher.spare.appendingPathComponent("old"), withDestinationURL: outside)
        let files = ["search/index.js": "s", "people/ada.html": "ada", "old/page.html": "new", "index.html": "i"]
        _ = try SpareRecyclingTests.publish(files, with: publisher)
        let published = try SiteRenderReuseTests.Nightly.files(in: publisher.output)
        #expect(published.keys.sorted() == [".orgdir-site"] + files.keys.sorted())
        #expect(try SpareRecyclingTests.text(publisher.output, "people/ada.html") == "ada")
        #expect(try SpareRecyclingTests.text(publisher.output, "old/page.html") == "new")
        #expect(try String(contentsOf: outside.appendingPathComponent("page.html"), encoding: .utf8) == "keep")
        var info = stat()
        #expect(lstat(publisher.output.appendingPathComponent("old").path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR, "a real folder, not the link")
    }

    @Test("an output emptied of all but dotfiles counts as gone: its spare is written over, its dotfiles carried")
    func emptiedOutputsSpareTaken() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let publisher = try Self.orphanedSpare(in: root, emptyingOutput: true)
        // The output's dotfiles now: the marker and one of the owner's (the spare keeps its old `.htaccess`).
        try FileManager.default.removeItem(at: publisher.output.appendingPathComponent(".htaccess"))
        try "allow".write(to: publisher.output.appendingPathComponent(".well"), atomically: false, encoding: .utf8)
        let staging = try SpareRecyclingTests.publish(["index.html": "three"], with: publisher)
        #expect(staging.holdsEarlierFiles && !staging.isRecycled)
        let published = try SiteRenderReuseTests.Nightly.files(in: publisher.output)
        #expect(published.keys.sorted() == [".orgdir-site", ".well", "index.html"])
        #expect(try SpareRecyclingTests.text(publisher.output, "index.html") == "three")
    }
}
