import Foundation
import Testing

@testable import OrgDirectory

/// The change history on the site: the "What changed" page, one page per night, the Atom feed and the history
/// section of each person's page, with hidden fields and hostile values handled as everywhere else.
@Suite("Site change history")
struct SiteChangesTests {
    static func slug(_ user: User) -> String { Slug.make(for: user) }

    @Test("the change page lists every night newest first: joiners, leavers, moves called out, changes")
    func changePage() async throws {
        let (folder, report) = try await SiteFixtures.renderSite(history: SiteFixtures.history)
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try SiteFixtures.read(folder, "changes.html")
        let nights = ["2026-03-05 02:00 UTC", "2026-03-04 02:00 UTC", "2026-03-01 02:00 UTC"]
        let positions = nights.compactMap { html.range(of: $0)?.lowerBound }
        #expect(positions.count == 3 && positions == positions.sorted(), "nights newest first")
        #expect(html.contains("<h3>Joined</h3>") && html.contains("<h3>Left</h3>") && html.contains("<h3>Moved</h3>"))
        #expect(
            html.contains("<a href=\"people/\(Self.slug(SiteFixtures.ivan)).html\">Иван Петров</a>, Analyst, Finance"))
        #expect(html.contains("<li class=\"move\"><strong>Department</strong>: Sales → Platform Engineering</li>"))
        #expect(html.contains("<li>Mobile phone: +49 170 0000001 → +49 (0)170 1234567</li>"))
        // The leaver has no page any more: named, not linked, and escaped.
        #expect(html.contains("<li>&lt;script&gt;alert(2)&lt;/script&gt;, "))
        #expect(html.contains("1 left, 1 changed (1 moved)"))
        for night in ["2026-03-01T02-00-00Z", "2026-03-04T02-00-00Z", "2026-03-05T02-00-00Z"] {
            #expect(report.paths.contains("changes/\(night).html"), "page of \(night)")
            #expect(html.contains("href=\"changes/\(night).html\""))
        }
        let night = try SiteFixtures.read(folder, "changes/2026-03-04T02-00-00Z.html")
        #expect(night.contains("<strong>Department</strong>: Sales → Platform Engineering"))
        #expect(night.contains("href=\"../people/\(Self.slug(SiteFixtures.jurgen)).html\""))
        #expect(night.contains("href=\"../assets/site.css\""))
    }

    @Test("the overview cuts long nights and links to the night's page, which lists everyone")
    func longNight() async throws {
        let joiners = (0..<(SiteRenderJob.changesOverviewLimit + 7)).map { number in
            User(id: "joiner-\(number)", userPrincipalName: "j\(number)@contoso.com", displayName: "Joiner \(number)")
        }
        let history = ChangeHistory(entries: [
            DiffReport(
                old: SiteFixtures.side("2026-03-01", people: 0), new: SiteFixtures.side("2026-03-02", people: 57),
                diff: DirectoryDiff(joiners: joiners))
        ])
        let (folder, _) = try await SiteFixtures.renderSite(joiners, history: history)
        defer { try? FileManager.default.removeItem(at: folder) }
        let overview = try SiteFixtures.read(folder, "changes.html")
        #expect(overview.components(separatedBy: ">Joiner ").count - 1 == SiteRenderJob.changesOverviewLimit)
        #expect(overview.contains("(7 more than listed here)"))
        let night = try SiteFixtures.read(folder, "changes/2026-03-02T02-00-00Z.html")
        #expect(night.components(separatedBy: ">Joiner ").count - 1 == joiners.count)
    }

    @Test("a person's page shows their history, Markdown twin and HTML alike")
    func personHistory() async throws {
        let (folder, _) = try await SiteFixtures.renderSite(history: SiteFixtures.history)
        defer { try? FileManager.default.removeItem(at: folder) }
        let markdown = try SiteFixtures.read(folder, "people/\(Self.slug(SiteFixtures.jurgen)).md")
        #expect(markdown.contains("## History"))
        #expect(
            markdown.contains(
                "- **Department**: Sales → Platform Engineering, [2026-03-04](../changes/2026-03-04T02-00-00Z.html)"),
            "\(markdown)")
        let html = try SiteFixtures.read(folder, "people/\(Self.slug(SiteFixtures.jurgen)).html")
        #expect(
            html.contains(
                "<strong>Department</strong>: Sales → Platform Engineering, "
                    + "<a href=\"../changes/2026-03-04T02-00-00Z.html\">2026-03-04</a>"))
        let ivan = try SiteFixtures.read(folder, "people/\(Self.slug(SiteFixtures.ivan)).md")
        #expect(ivan.contains("- Joined, [2026-03-01](../changes/2026-03-01T02-00-00Z.html)"))
        let quiet = try SiteFixtures.read(folder, "people/\(Self.slug(SiteFixtures.strasse)).md")
        #expect(!quiet.contains("History"))
    }

    @Test("hideFields removes a hidden field from the change pages, the feed and the person history")
    func hiddenHistory() async throws {
        let (folder, report) = try await SiteFixtures.renderSite(
            options: SiteOptions(hideFields: ["mobilePhone"]), history: SiteFixtures.history)
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in report.paths where path.hasPrefix("changes") || path.hasPrefix("people/") {
            let text = try SiteFixtures.read(folder, path)
            #expect(!text.contains("170 0000001") && !text.contains("Mobile phone"), "\(path) shows the hidden mobile")
        }
        let html = try SiteFixtures.read(folder, "changes.html")
        #expect(html.contains("Sales → Platform Engineering"))
    }

    @Test("hostile values in the history are text everywhere: pages, Markdown, feed")
    func hostileHistory() async throws {
        let (folder, report) = try await SiteFixtures.renderSite(history: SiteFixtures.history)
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in report.paths where path.hasPrefix("changes") {
            let text = try SiteFixtures.read(folder, path)
            #expect(!text.contains("<script>alert") && !text.contains("<img"), "\(path)")
            #expect(!text.contains("href=\"javascript") && !text.contains("\u{202E}"), "\(path)")
        }
        let hostile = SiteFixtures.hostileUser("[x](javascript:alert(1))", number: 2)
        let page = try SiteFixtures.read(folder, "people/\(Self.slug(hostile)).md")
        let pageHTML = try SiteFixtures.read(folder, "people/\(Self.slug(hostile)).html")
        #expect(!pageHTML.contains("href=\"javascript") && pageHTML.contains("## History") == false)
        #expect(pageHTML.contains("<strong>Office</strong>: [x](javascript:alert(1)) → Berlin"))
        #expect(page.contains("- **Office**: \\[x\\]\\(javascript\\:alert\\(1\\)\\) → Berlin, [2026-03-05]"), "\(page)")
    }

    @Test("the Atom feed is well-formed Atom 1.0 with stable ids and a self link, and every page links to it")
    func atomFeed() async throws {
        try #require(SitePython.executable != nil, "python3 is needed for the independent XML parser")
        let first = try await SiteFixtures.renderSite(history: SiteFixtures.history)
        let again = try await SiteFixtures.renderSite(history: SiteFixtures.history)
        defer {
            try? FileManager.default.removeItem(at: first.folder)
            try? FileManager.default.removeItem(at: again.folder)
        }
        let feedPath = first.folder.appendingPathComponent("changes.atom").path
        let result = try SitePython.json(Self.atomChecker, [feedPath, first.folder.path])
        let entries = try #require(result as? [[String: String]])
        #expect(
            entries.map(\.["href"]) == [
                "changes/2026-03-05T02-00-00Z.html", "changes/2026-03-04T02-00-00Z.html",
                "changes/2026-03-01T02-00-00Z.html",
            ])
        #expect(entries[1]["content"]?.contains("Moved: Jürgen Müller: ") == true)
        #expect(entries[1]["content"]?.contains("Left: <script>alert(2)</script>") == true, "\(entries[1])")
        #expect(entries[0]["title"]?.hasPrefix("Changes on 2026-03-05 02:00 UTC: 0 joined, 0 left, 11 changed") == true)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: feedPath))
                == Data(contentsOf: again.folder.appendingPathComponent("changes.atom")), "ids and bytes are stable")
        for path in first.report.paths where path.hasSuffix(".html") {
            let html = try SiteFixtures.read(first.folder, path)
            let root = path.contains("/") ? "../" : ""
            #expect(
                html.contains(
                    "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Company directory: what changed\" "
                        + "href=\"\(root)changes.atom\">"), "\(path)")
        }
    }

    @Test("with no history yet there is still a change page and a valid, empty feed")
    func emptyHistory() async throws {
        try #require(SitePython.executable != nil)
        let (folder, _) = try await SiteFixtures.renderSite(SiteFixtures.friendly)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try SiteFixtures.read(folder, "changes.html").contains("No changes recorded yet"))
        let result = try SitePython.json(
            Self.atomChecker, [folder.appendingPathComponent("changes.atom").path, folder.path])
        #expect((result as? [Any])?.isEmpty == true)
    }

    /// Parses an Atom file with xml.etree and checks RFC 4287's required elements; prints the entries.
    static let atomChecker = #"""
        import json, os, re, sys
        import xml.etree.ElementTree as ET
        A = "{http://www.w3.org/2005/Atom}"
        root = ET.parse(sys.argv[1]).getroot()
        assert root.tag == A + "feed", root.tag
        uuid = re.compile(r"^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        date = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        def one(element, name):
            found = element.findall(A + name)
            assert len(found) == 1, "%s: %d <%s> elements" % (element.tag, len(found), name)
            return found[0]
        assert uuid.match(one(root, "id").text), "feed id"
        assert one(root, "title").text
        assert date.match(one(root, "updated").text)
        assert one(one(root, "author"), "name").text
        alternate = [l for l in root.findall(A + "link") if l.get("rel") == "alternate"]
        assert len(alternate) == 1 and os.path.exists(os.path.join(sys.argv[2], alternate[0].get("href")))
        self_links = [l for l in root.findall(A + "link") if l.get("rel") == "self"]
        assert len(self_links) == 1 and self_links[0].get("type") == "application/atom+xml", "one self link"
        assert os.path.samefile(os.path.join(sys.argv[2], self_links[0].get("href")), sys.argv[1]), "self is the feed"
        out, ids = [], set()
        for entry in root.findall(A + "entry"):
            entry_id = one(entry, "id").text
            assert uuid.match(entry_id) and entry_id not in ids, "entry id %r" % entry_id
            ids.add(entry_id)
            assert date.match(one(entry, "updated").text)
            links = [l for l in entry.findall(A + "link") if l.get("rel") == "alternate"]
            assert len(links) == 1, "one alternate link"
            href = links[0].get("href")
            assert os.path.exists(os.path.join(sys.argv[2], href)), "entry links to a missing page: " + href
            content = one(entry, "content")
            assert content.get("type") == "text"
            out.append({"title": one(entry, "title").text, "href": href, "content": content.text or ""})
        print(json.dumps(out))
        """#
}
