import Foundation
import Testing

@testable import OrgDirectory

@Suite("Diff formatter")
struct DiffFormatterTests {
    /// 2026-03-03 → 2026-03-04: one joiner (hostile), one leaver, one mover, one phone change.
    static func report() -> DiffReport {
        let p = SnapshotFixtures.people(4)
        var mover = p[1]
        mover.department = "Operations"
        var phone = p[2]
        phone.mobilePhone = nil
        let old = SnapshotFixtures.snapshot([p[0], p[1], p[2], p[3]], at: 1_772_503_200)
        let new = SnapshotFixtures.snapshot([p[0], mover, phone, SnapshotFixtures.hostile()], at: 1_772_589_600)
        return DiffReport(old: old, named: "2026-03-03T02-00-00Z.json", new: new, named: "2026-03-04T02-00-00Z.json")
    }

    static func equalReport() -> DiffReport {
        let snapshot = SnapshotFixtures.snapshot(SnapshotFixtures.people(3))
        return DiffReport(old: snapshot, named: "a.json", new: snapshot, named: "b.json")
    }

    @Test("text lists joiners, leavers and changes, calls out moves, and has no colour unless asked")
    func text() throws {
        let text = try DiffFormatter(format: .text).render(Self.report())
        #expect(!text.contains("\u{1B}"))
        #expect(
            text.hasPrefix(
                "orgdir diff: 2026-03-03T02-00-00Z.json (4 people, 2026-03-03 02:00 UTC)\n"
                    + "          → 2026-03-04T02-00-00Z.json (4 people, 2026-03-04 02:00 UTC)\n"))
        #expect(text.contains("1 joined, 1 left, 2 changed (1 moved)"))
        #expect(text.contains("Left (1)\n  - Person 3 — Engineer, Sales <person3@contoso.example>"))
        #expect(text.contains("  ~ Person 1\n      Department: Sales → Operations (moved)\n"))
        #expect(text.contains("Mobile phone: +1 206 555 0002 → (none)"))
        let coloured = try DiffFormatter(format: .text, colour: true).render(Self.report())
        #expect(coloured.contains("\u{1B}[32m+\u{1B}[0m"))
    }

    @Test("text defuses terminal escapes and bidi overrides in directory values")
    func textDefusesControls() throws {
        let text = try DiffFormatter(format: .text).render(Self.report())
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0 })
        #expect(text.contains("\\u{1B}[31m"))
        #expect(text.contains("\\u{202E}evil"))
        // Each person stays on one line: the hostile newline is shown, not obeyed.
        #expect(text.contains("\\u{A}"))
    }

    @Test("no changes says so, in every format", arguments: DiffFormat.allCases)
    func noChanges(_ format: DiffFormat) throws {
        let text = try DiffFormatter(format: format).render(Self.equalReport())
        if format == .json {
            #expect(text.contains("\"joined\" : 0"))
        } else {
            #expect(text.contains("No changes."))
        }
    }

    @Test("colour only on a terminal without NO_COLOR and not TERM=dumb")
    func colourDecision() {
        #expect(DiffFormatter.wantsColour(isTerminal: true, environment: [:]))
        #expect(!DiffFormatter.wantsColour(isTerminal: false, environment: [:]))
        #expect(!DiffFormatter.wantsColour(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(DiffFormatter.wantsColour(isTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(!DiffFormatter.wantsColour(isTerminal: true, environment: ["TERM": "dumb"]))
    }

    @Test("HTML escapes hostile values: the only elements are the formatter's own")
    func htmlEscaping() throws {
        let html = try DiffFormatter(format: .html).render(Self.report())
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quotes&quot;"))
        let allowed: Set<String> = [
            "!doctype", "html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "p", "strong", "ul", "li",
            "bdi",
        ]
        var tags: Set<String> = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            let name = rest[rest.index(after: open)...].prefix { $0.isLetter || $0.isNumber || $0 == "!" || $0 == "/" }
            tags.insert(name.trimmingCharacters(in: CharacterSet(charactersIn: "/")).lowercased())
            rest = rest[rest.index(after: open)...]
        }
        #expect(tags.subtracting(allowed).isEmpty, "unexpected elements: \(tags.subtracting(allowed))")
        #expect(html.contains("<li class=\"moved\">Moved: Department: <bdi>Sales</bdi> → <bdi>Operations</bdi></li>"))
    }

    @Test("Markdown escapes punctuation so values cannot make links, HTML or emphasis")
    func markdownEscaping() throws {
        let markdown = try DiffFormatter(format: .markdown).render(Self.report())
        #expect(markdown.contains("\\[x\\](javascript:alert(1))"))
        #expect(markdown.contains("\\<script\\>"))
        #expect(!markdown.contains("[x](javascript"))
        #expect(markdown.contains("- **Person 1**\n  - Department: Sales → Operations *(moved)*\n"))
        #expect(markdown.contains("  - Mobile phone: +1 206 555 0002 → *(none)*\n"))
        #expect(DiffFormatter.markdown("*_`~|&!<>[]\\#.-+()") == "\\*\\_\\`\\~\\|\\&\\!\\<\\>\\[\\]\\\\\\#.-+()")
    }

    @Test("JSON is stable and decodes back into the same report")
    func jsonRoundTrip() throws {
        let report = Self.report()
        let json = try DiffFormatter(format: .json).render(report)
        #expect(try DiffFormatter(format: .json).render(report) == json)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(DiffReport.self, from: Data(json.utf8)) == report)
        #expect(json.contains("\"isMove\" : true"))
        #expect(json.contains("\"takenAt\" : \"2026-03-04T02:00:00Z\""))
    }

    @Test("people are listed by name, whatever their ids")
    func sortedByName() throws {
        var zed = SnapshotFixtures.person(1)
        zed.displayName = "Zed"
        var amy = SnapshotFixtures.person(2)
        amy.displayName = "amy"
        let report = DiffReport(
            old: SnapshotFixtures.snapshot([]), named: "a", new: SnapshotFixtures.snapshot([zed, amy]), named: "b")
        let text = try DiffFormatter(format: .text).render(report)
        let amyAt = try #require(text.range(of: "amy"))
        let zedAt = try #require(text.range(of: "Zed"))
        #expect(amyAt.lowerBound < zedAt.lowerBound)
    }
}
