import Foundation
import Testing

@testable import OrgDirectory

@Suite("Site renderer")
struct SiteRendererTests {
    @Test("writes a Markdown, HTML and vCard page per person plus index, search data and exports")
    func writesEverything() async throws {
        let (folder, report) = try await SiteFixtures.renderSite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let users = SiteFixtures.all
        #expect(report.people == users.count)
        for slug in Slug.assign(users) {
            for ext in ["md", "html", "vcf"] { #expect(report.paths.contains("people/\(slug).\(ext)")) }
        }
        for path in [
            "index.html", "assets/site.css", "assets/search.js", "search/manifest.js", "people.csv", "people.json",
            "people.vcf", "departments.html", "browse/index.html", "browse/m.html", "browse/other.html",
        ] {
            #expect(report.paths.contains(path), "missing \(path)")
        }
        #expect(report.filesWritten == report.paths.count)
        let onDisk = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: folder.appendingPathComponent($0).path, isDirectory: &isFolder)
            return exists && !isFolder.boolValue
        }
        #expect(Set(onDisk) == Set(report.paths))
        let index = try SiteFixtures.read(folder, "index.html")
        for user in SiteFixtures.friendly { #expect(index.contains(SiteEscaping.html(user.displayName))) }
    }

    @Test("without listing paths a render writes the same files and counts them, but keeps no list")
    func unlistedPaths() async throws {
        let (listedFolder, listed) = try await SiteFixtures.renderSite()
        defer { try? FileManager.default.removeItem(at: listedFolder) }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await SiteRenderer(options: SiteOptions()).render(
            SiteFixtures.all, generatedAt: Date(timeIntervalSince1970: 1_763_000_000), listingPaths: false,
            to: DirectorySiteOutput(root: folder))
        #expect(report.paths.isEmpty)
        #expect(report.filesWritten == listed.filesWritten)
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
                == FileManager.default.subpathsOfDirectory(atPath: listedFolder.path).sorted())
    }

    @Test("an empty directory still gets an index, search data and exports")
    func emptyDirectory() async throws {
        let (folder, report) = try await SiteFixtures.renderSite([])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(report.people == 0)
        for path in ["index.html", "search/manifest.js", "people.csv", "departments.html", "browse/index.html"] {
            #expect(report.paths.contains(path), "missing \(path)")
        }
        #expect(try SiteFixtures.read(folder, "index.html").contains("Everyone (0 people)"))
    }

    @Test("the person page shows every field, tel: and mailto: links, manager, reports and the stamp")
    func personPage() async throws {
        let (folder, _) = try await SiteFixtures.renderSite(SiteFixtures.friendly)
        defer { try? FileManager.default.removeItem(at: folder) }
        let slugs = Dictionary(uniqueKeysWithValues: SiteFixtures.friendly.map { ($0.id, Slug.make(for: $0)) })
        let jurgen = try SiteFixtures.read(folder, "people/\(slugs[SiteFixtures.jurgen.id] ?? "").html")
        for expected in [
            "<h1>Jürgen Müller</h1>", "Senior Engineer", "Platform Engineering", "Berlin 4.12", "Contoso",
            "<a href=\"mailto:juergen.mueller@contoso.com\">juergen.mueller@contoso.com</a>",
            "<a href=\"tel:+14255550134\">+1 425 555 0134</a>", "<a href=\"tel:+491701234567\">+49 (0)170 1234567</a>",
            "<a href=\"\(slugs[SiteFixtures.boss.id] ?? "").html\">Søren Østergaard</a>",
            "Data as of <time datetime=\"2025-11-13T02:13:20Z\">2025-11-13 02:13 UTC</time>",
            "href=\"\(slugs[SiteFixtures.jurgen.id] ?? "").md\"", "href=\"\(slugs[SiteFixtures.jurgen.id] ?? "").vcf\"",
            "http-equiv=\"Content-Security-Policy\"", "<main id=\"main\"",
        ] {
            #expect(jurgen.contains(expected), "missing \(expected)")
        }
        let boss = try SiteFixtures.read(folder, "people/\(slugs[SiteFixtures.boss.id] ?? "").md")
        #expect(boss.contains("## Direct reports"))
        #expect(boss.contains("[Jürgen Müller](\(slugs[SiteFixtures.jurgen.id] ?? "").md), Senior Engineer"))
        #expect(boss.contains("[Иван Петров](\(slugs[SiteFixtures.ivan.id] ?? "").md), Analyst"))
        let ivan = try SiteFixtures.read(folder, "people/\(slugs[SiteFixtures.ivan.id] ?? "").md")
        #expect(!ivan.contains("Direct reports"))
    }

    @Test("hostile values never reach any page as markup")
    func hostilePages() async throws {
        let (folder, report) = try await SiteFixtures.renderSite()
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in report.paths where path.hasSuffix(".html") {
            let html = try SiteFixtures.read(folder, path)
            #expect(!html.contains("<script>alert"), "\(path)")
            #expect(!html.contains("<img"), "\(path)")
            #expect(!html.contains("href=\"javascript"), "\(path)")
            #expect(!html.contains("\u{202E}"), "\(path)")
            // The hostile value shows as text; any other `{{` would be a template tag that was not rendered.
            let leftover = html.replacingOccurrences(of: "{{mustache}} {{{triple}}}", with: "")
            #expect(
                leftover.range(of: "{{") == nil,
                "\(path): \(leftover.range(of: "{{").map { leftover[$0.lowerBound...].prefix(60) } ?? "")")
            // Only the one external script of the index page, never inline.
            let scripts = html.components(separatedBy: "<script").count - 1
            #expect(scripts == (path == "index.html" ? 1 : 0), "\(path)")
        }
        for path in report.paths where path.hasPrefix("search/") {
            let text = try SiteFixtures.read(folder, path)
            #expect(!text.contains("<") && !text.contains(">"), "\(path)")
        }
    }

    @Test("hideFields removes a field from pages, search data and exports")
    func hiddenFields() async throws {
        let (folder, report) = try await SiteFixtures.renderSite(
            SiteFixtures.friendly, options: SiteOptions(hideFields: ["mobilePhone", "officeLocation"]))
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in report.paths where !path.hasPrefix("assets/") {
            let text = try SiteFixtures.read(folder, path)
            #expect(!text.contains("170 1234567") && !text.contains("491701234567"), "\(path) shows the hidden mobile")
            #expect(!text.contains("Berlin 4.12") && !text.contains("Berlin 4\\.12"), "\(path) shows the hidden office")
        }
        let csv = try SiteFixtures.read(folder, "people.csv")
        #expect(!csv.contains("Mobile phone") && !csv.contains("Office"))
    }

    @Test("exports can be switched off one by one")
    func exportSwitches() async throws {
        let (folder, report) = try await SiteFixtures.renderSite(
            SiteFixtures.friendly, options: SiteOptions(exports: [.json]))
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(report.paths.contains("people.json"))
        #expect(!report.paths.contains("people.csv") && !report.paths.contains("people.vcf"))
        let index = try SiteFixtures.read(folder, "index.html")
        #expect(index.contains("people.json") && !index.contains("people.csv"))
    }

    @Test("CSV, JSON and vCard exports parse back to everyone")
    func exportsParse() async throws {
        let (folder, _) = try await SiteFixtures.renderSite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: folder.appendingPathComponent("people.csv"))
        #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let rows = try #require(CSVParsing.rows(String(decoding: bytes.dropFirst(3), as: UTF8.self)))
        #expect(rows.count == SiteFixtures.all.count + 1)
        #expect(rows.allSatisfy { $0.count == rows[0].count })
        let nameColumn = try #require(rows[0].firstIndex(of: "Name"))
        let names = Set(rows.dropFirst().map { $0[nameColumn] })
        #expect(names.contains("Jürgen Müller"))
        #expect(names.contains("'=cmd|' /C calc'!A0"))
        for row in rows.dropFirst() {
            for cell in row { #expect(!["=", "+", "-", "@"].contains(cell.first.map(String.init) ?? "")) }
        }
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("people.json")))
        let people = try #require(json as? [[String: Any]])
        #expect(people.count == SiteFixtures.all.count)
        #expect(people.contains { ($0["displayName"] as? String) == "<script>alert(1)</script>" })
        let vcf = try SiteFixtures.read(folder, "people.vcf")
        #expect(vcf.components(separatedBy: "BEGIN:VCARD\r\n").count - 1 == SiteFixtures.all.count)
        #expect(vcf.components(separatedBy: "END:VCARD\r\n").count - 1 == SiteFixtures.all.count)
    }

    @Test("the same people render to the same bytes, whatever their order")
    func deterministic() async throws {
        let first = try await SiteFixtures.renderSite()
        let second = try await SiteFixtures.renderSite(SiteFixtures.all.reversed())
        defer {
            try? FileManager.default.removeItem(at: first.folder)
            try? FileManager.default.removeItem(at: second.folder)
        }
        #expect(first.report.paths == second.report.paths)
        for path in first.report.paths {
            let a = try Data(contentsOf: first.folder.appendingPathComponent(path))
            let b = try Data(contentsOf: second.folder.appendingPathComponent(path))
            #expect(a == b, "\(path) differs between runs")
        }
    }

    @Test("large directories get browse pages instead of one long index")
    func browsePages() async throws {
        let users = (0..<30).map {
            User(
                id: "u\($0)", userPrincipalName: "u\($0)@x", displayName: "Person \($0)",
                surname: ["Adams", "Brown", "Шевченко"][$0 % 3],
                department: $0 % 2 == 0 ? "Sales" : "Legal")
        }
        let (folder, report) = try await SiteFixtures.renderSite(users, options: SiteOptions(indexListLimit: 10))
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = try SiteFixtures.read(folder, "index.html")
        #expect(!index.contains("people/\(Slug.make(for: users[0])).html"))
        #expect(index.contains("href=\"browse/a.html\"") && index.contains("href=\"browse/other.html\""))
        let a = try SiteFixtures.read(folder, "browse/a.html")
        #expect(a.components(separatedBy: "<li class=\"person\">").count - 1 == 10)
        let departments = try SiteFixtures.read(folder, "departments.html")
        #expect(departments.contains(">Legal</a> <span class=\"count\">15</span>"))
        #expect(report.paths.contains { $0.hasPrefix("departments/sales-") })
    }
}

/// A strict RFC 4180 reader for tests (quoted fields, doubled quotes, CRLF records).
enum CSVParsing {
    static func rows(_ text: String) -> [[String]]? {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var characters = Array(text.unicodeScalars)[...]
        while let scalar = characters.popFirst() {
            if inQuotes {
                if scalar == "\"" {
                    if characters.first == "\"" {
                        field.unicodeScalars.append("\"")
                        characters.removeFirst()
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" {
                inQuotes = true
            } else if scalar == "," {
                row.append(field)
                field = ""
            } else if scalar == "\r" {
                guard characters.popFirst() == "\n" else { return nil }
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                return nil
            }
        }
        return inQuotes || !row.isEmpty ? nil : rows
    }
}
