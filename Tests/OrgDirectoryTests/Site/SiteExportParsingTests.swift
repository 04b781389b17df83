import Foundation
import Testing

@testable import OrgDirectory

/// The exports read back by parsers we did not write: Python's csv module for people.csv (RFC 4180) and a
/// strict RFC 6350 reader for people.vcf and the per-person cards, on hostile and international data.
@Suite("Site exports through independent parsers", .enabled(if: SitePython.executable != nil, "python3 missing"))
struct SiteExportParsingTests {
    /// Formula starts a spreadsheet would run, on top of the shared hostile values.
    static let formulaUser = User(
        id: "formula-1", userPrincipalName: "formula@contoso.com", displayName: "@SUM(1+1)*cmd",
        givenName: "\t=1+2", surname: "\r=HYPERLINK(\"http://x\")", mail: "formula@contoso.com",
        jobTitle: "-2+3", department: "+Finance", officeLocation: "=A1")

    static var people: [User] { SiteFixtures.all + [formulaUser] }

    /// What a correct reader gets back from a text value: line breaks kept as `\n`, bidi overrides and other
    /// control characters gone.
    static func expectedText(_ value: String) -> String {
        let unified = value.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return String(
            String.UnicodeScalarView(
                unified.unicodeScalars.filter { scalar in
                    !SiteEscaping.isBidiControl(scalar) && (scalar.value >= 0x20 || scalar == "\n")
                        && scalar.value != 0x7F
                }))
    }

    @Test("people.csv: Python's csv module reads every person, values intact, formulas neutralized")
    func csvParses() async throws {
        let (folder, _) = try await SiteFixtures.renderSite(Self.people)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("people.csv").path
        let rows = try #require(try SitePython.json(SitePython.csvReader, [path]) as? [[String]])
        #expect(rows.count == Self.people.count + 1)
        #expect(rows.allSatisfy { $0.count == rows[0].count })
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)).dropFirst(3), as: UTF8.self)
        #expect(CSVParsing.rows(text) == rows, "our reader and Python's agree")
        for row in rows.dropFirst() {
            for cell in row {
                let first = cell.unicodeScalars.first.map { String($0) } ?? ""
                #expect(
                    !["=", "+", "-", "@", "\t", "\r"].contains(first), "formula-looking cell \(cell.debugDescription)")
                #expect(!cell.unicodeScalars.contains(where: SiteEscaping.isBidiControl), "bidi override in \(cell)")
            }
        }
        let name = try #require(rows[0].firstIndex(of: "Name"))
        let given = try #require(rows[0].firstIndex(of: "Given name"))
        let names = Set(rows.dropFirst().map { $0[name] })
        for value in [
            "Jürgen Müller", "Иван Петров", "<script>alert(1)</script>", "{{mustache}} {{{triple}}}",
            "../../etc/passwd", "a\"b'c&d<e>f\\g,h;i\nj", String(repeating: "Ä", count: 256), "'@SUM(1+1)*cmd",
        ] {
            #expect(names.contains(value), "\(value.debugDescription) missing from the CSV")
        }
        #expect(rows.contains { $0[given] == "'\t=1+2" })
    }

    @Test("people.csv: a double quote carrying a combining mark is doubled too, so no cell ends early")
    func csvQuoteWithMark() async throws {
        let name = "Zoë \"\u{301}Boss, CEO\"\u{301}, \"x\""
        let user = User(
            id: "quote-mark", userPrincipalName: "q@contoso.com", displayName: name, jobTitle: "Chief \"\u{301}")
        let (folder, _) = try await SiteFixtures.renderSite([user, SiteFixtures.jurgen])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("people.csv").path
        let rows = try #require(try SitePython.json(SitePython.csvReader, [path]) as? [[String]])
        #expect(rows.count == 3 && rows.allSatisfy { $0.count == rows[0].count })
        let column = try #require(rows[0].firstIndex(of: "Name"))
        #expect(rows.contains { $0[column] == name })
    }

    @Test("people.vcf and every person's .vcf pass a strict RFC 6350 reader with the right values")
    func vCardsParse() async throws {
        let (folder, report) = try await SiteFixtures.renderSite(Self.people)
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = folder.appendingPathComponent("people.vcf").path
        let cards = try #require(try SitePython.json(SitePython.vCardReader, [all]) as? [[String: Any]])
        #expect(cards.count == Self.people.count)
        let names = Set(cards.compactMap { ($0["FN"] as? [String])?.first })
        #expect(names == Set(Self.people.map { Self.expectedText($0.displayName) }))
        let jurgen = try #require(cards.first { ($0["FN"] as? [String]) == ["Jürgen Müller"] })
        #expect((jurgen["N"] as? [[String]])?.first == ["Müller", "Jürgen", "", "", ""])
        #expect(jurgen["TEL"] as? [String] == ["tel:+14255550134", "tel:+491701234567"])
        #expect((jurgen["ORG"] as? [[String]])?.first == ["Contoso", "Platform Engineering"])
        let tricky = try #require(cards.first { ($0["FN"] as? [String]) == ["a\"b'c&d<e>f\\g,h;i\nj"] })
        #expect((tricky["ADR"] as? [[String]])?.first?[1] == "a\"b'c&d<e>f\\g,h;i\nj")
        for path in report.paths where path.hasSuffix(".vcf") && path.hasPrefix("people/") {
            let single = try SitePython.run(SitePython.vCardReader, [folder.appendingPathComponent(path).path])
            #expect(single.status == 0, "\(path): \(single.stderr)")
        }
        // The export's cards are made in place, one after another: they are the person files' cards, in the
        // directory's order, byte for byte (long lines folded the same way).
        let directory = SiteDirectory(users: Self.people, hiding: [])
        var concatenated = Data()
        for person in directory.people {
            concatenated += try Data(contentsOf: folder.appendingPathComponent("people/\(person.slug).vcf"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: all)) == concatenated)
    }
}
