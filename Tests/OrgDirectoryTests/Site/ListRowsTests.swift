import Foundation
import Testing

@testable import OrgDirectory

/// The browse and department pages copy every person's row from rows made once (`ListRows`): the pages must be
/// byte for byte the pages made row by row, hostile names and long (paged) lists included.
@Suite("List rows made once")
struct ListRowsTests {
    @Test("browse and department pages copied from rows made once equal the pages made row by row")
    func sharedRowsGiveTheSamePages() throws {
        // Enough people for some letters to need more than one page (500 rows a page).
        var users = SiteBenchmarkDirectory.users(count: 15_000) + SiteFixtures.friendly
        users += SiteFixtures.hostile.enumerated().map { SiteFixtures.hostileUser($1, number: $0) }
        let directory = SiteDirectory(users: users, hiding: [])
        let job = SiteRenderJob(
            options: SiteOptions(), templates: try TemplateSet(overriding: nil), directory: directory,
            stamp: SiteStamp(Date(timeIntervalSince1970: 1_763_000_000)),
            history: SiteHistory(ChangeHistory(), hiding: []))
        let root = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let (rowByRow, shared) = (root.appendingPathComponent("a"), root.appendingPathComponent("b"))
        let paths =
            try job.renderBrowse(to: DirectorySiteOutput(root: rowByRow))
            + job.renderDepartments(to: DirectorySiteOutput(root: rowByRow))
        let made = ListRows(directory)
        let sharedPaths =
            try job.renderBrowse(to: DirectorySiteOutput(root: shared), rows: made)
            + job.renderDepartments(to: DirectorySiteOutput(root: shared), rows: made)
        #expect(sharedPaths == paths)
        #expect(paths.contains { $0.hasSuffix("-2.html") }, "some list has more than one page")
        for path in paths {
            let expected = try Data(contentsOf: rowByRow.appendingPathComponent(path))
            #expect(try Data(contentsOf: shared.appendingPathComponent(path)) == expected, "\(path)")
        }
    }

    @Test("with the row template overridden, the list pages show the override, not the built-in shared rows")
    func overriddenRowTemplateIsStillUsed() throws {
        let root = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let templates = root.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("<li>ROW {{name}}</li>\n".utf8).write(to: templates.appendingPathComponent("person-row.mustache"))
        let directory = SiteDirectory(users: SiteFixtures.friendly, hiding: [])
        let job = SiteRenderJob(
            options: SiteOptions(), templates: try TemplateSet(overriding: templates), directory: directory,
            stamp: SiteStamp(Date(timeIntervalSince1970: 1_763_000_000)),
            history: SiteHistory(ChangeHistory(), hiding: []))
        let output = root.appendingPathComponent("out")
        let paths = try job.renderLists(to: DirectorySiteOutput(root: output)).paths
        let letter = try #require(paths.first { $0.hasPrefix("browse/") && $0 != "browse/index.html" })
        let page = try String(contentsOf: output.appendingPathComponent(letter), encoding: .utf8)
        #expect(page.contains("<li>ROW "), "the overriding row template is what the page shows")
        #expect(!page.contains("class=\"person\""))
    }
}

/// Person pages write the layout from pieces made once (`FrameBytes`): the pieces around any title, and the tail
/// for any stamp, must be what the layout writes for that page.
@Suite("Person page frame made once")
struct FrameBytesTests {
    static let stamp = SiteStamp(Date(timeIntervalSince1970: 1_763_000_000))

    static func frame(title: String, stamp: SiteStamp = Self.stamp, siteTitle: String = "Contoso <People>")
        -> PageFrame
    {
        PageFrame(
            siteTitle: siteTitle, pageTitle: title, root: "../", scripts: [], kind: "person", isIndex: false,
            stamp: stamp, exports: SiteExport.allCases)
    }

    @Test("the frame made once writes every title and stamp as the layout does", arguments: SiteFixtures.hostile)
    func sameBytesAsTheLayout(title: String) {
        let pieces = FrameBytes(Self.frame(title: "ignored"))
        let otherStamp = SiteStamp(Date(timeIntervalSince1970: 1_700_000_000))
        for stamp in [Self.stamp, otherStamp] {
            let frame = Self.frame(title: title, stamp: stamp)
            var expected = PageBytes()
            frame.appendHead(to: &expected)
            frame.appendTail(to: &expected)
            var made = PageBytes()
            pieces.appendHead(title: SiteEscaping.displayText(title), to: &made)
            pieces.appendTail(stamp: stamp, frame: frame, to: &made)
            #expect(made.bytes == expected.bytes)
        }
    }
}
