import Foundation
import Testing

@testable import OrgDirectory

/// The compiled built-in templates against Mustache rendering the same templates: every file of a hostile
/// fixture site, byte for byte. Mustache is the reference; a compiled template that drifts from its
/// `Templates/*.mustache` text fails here with the file and the first differing line.
@Suite("Built-in template drift")
struct BuiltinTemplateDriftTests {
    /// Values that stress escaping: HTML and Markdown specials, entities, emoji, right-to-left and CJK text,
    /// bidi overrides and control characters, and ASCII specials sharing a grapheme cluster with a neighbour.
    static let awkward: [String] = [
        "<script>alert(1)</script>", "Tom & \"Jerry\" O'Neil", "*bold* _it_ [x](y) #h |t| `code` ~s~ \\ !", "1. one",
        "- dash", "+plus", "=eq", "www.example.com", "a@b.c: d", "&amp; &#39; &lt;", "👩‍👩‍👧‍👦 Family 🇩🇪 👍🏽",
        "محمد الأحمد", "‏שלום עולם", "evil\u{202E}gnp.exe", "王小明", "山田 太郎", "tab\there\nnew\rline",
        "quote\"\u{301} and <\u{301}b> and &\u{20DD}", "\u{600}<prepend \u{600}&", "'\u{FE0F}x'\u{200D}y",
        "\u{202E}", "  spaced  ", "{{mustache}} {{{triple}}}",
    ]

    /// One person per awkward value in every field, people with nothing but a name, managers inside and
    /// outside the set (with and without a name), reports, extra fields, local and dialable phones.
    static var people: [User] {
        var users = SiteFixtures.all
        for (number, value) in awkward.enumerated() {
            let managerID = number % 3 == 0 ? SiteFixtures.boss.id : number % 3 == 1 ? "gone-\(number)" : "awkward-0"
            users.append(
                User(
                    id: "awkward-\(number)", userPrincipalName: "u\(number)@contoso.com",
                    displayName: value + " \(number)",
                    givenName: value, surname: number % 2 == 0 ? value : nil, mail: "m\(number)+\(value)@contoso.com",
                    businessPhones: number % 4 == 0 ? [] : [value, "12"], mobilePhone: "+1 425 555 01\(number % 10)",
                    jobTitle: number % 5 == 0 ? nil : value, department: number % 6 == 0 ? nil : value,
                    officeLocation: value, companyName: value, employeeId: value,
                    manager: ManagerReference(id: managerID, displayName: number % 2 == 0 ? nil : value),
                    extra: ["extensionAttribute1": value, "extensionAttribute2": "secret \(number)", value: "v"]))
        }
        users.append(User(id: "bare", userPrincipalName: "", displayName: "Bare Minimum"))
        users.append(
            User(
                id: "orphan", userPrincipalName: "orphan@contoso.com", displayName: "Orphan",
                manager: ManagerReference(id: "nowhere", displayName: nil)))
        return users
    }

    /// Enough people under one letter and in one department for numbered pages and their pagers.
    static var bulk: [User] {
        (0..<1_100).map { number in
            User(
                id: "bulk-\(number)", userPrincipalName: "bulk\(number)@contoso.com",
                displayName: "Bulk <\(number)>", givenName: "Bulk", surname: "Baker & Sons",
                businessPhones: ["+1 425 555 \(1000 + number)"], department: "Bulk & Co")
        }
    }

    /// A site configuration: its options apart from the templates folder, the people and the change history.
    struct Configuration: Sendable, CustomTestStringConvertible {
        let name: String
        let options: SiteOptions
        let people: [User]
        var history = SiteFixtures.history
        var testDescription: String { name }
    }

    /// The fixture's history and a night longer than the change overview lists: sixty of `bulk` joined, awkward
    /// people left, and seventy changed, some of them moved.
    static var longHistory: ChangeHistory {
        var history = SiteFixtures.history
        let bulk = Self.bulk
        let leavers = awkward.enumerated().map { number, value in
            User(id: "left-\(number)", userPrincipalName: "", displayName: value, jobTitle: value, department: value)
        }
        let changed = (0..<70).map { number in
            PersonChange(
                id: bulk[number].id, displayName: bulk[number].displayName,
                fieldChanges: [
                    FieldChange(field: number % 2 == 0 ? "department" : "jobTitle", old: nil, new: "New & <old>"),
                    FieldChange(field: "mobilePhone", old: "+1 425 555 0100", new: nil),
                ])
        }
        history.entries.append(
            DiffReport(
                old: SiteFixtures.side("2026-03-05", people: 6), new: SiteFixtures.side("2026-03-06", people: 1_100),
                diff: DirectoryDiff(joiners: Array(bulk.prefix(60)), leavers: leavers, changed: changed)))
        history.latestSnapshot = "2026-03-06T02-00-00Z.json"
        return history
    }

    static let configurations: [Configuration] = [
        Configuration(name: "defaults, everyone listed", options: SiteOptions(), people: people),
        Configuration(
            name: "hostile title, hidden fields, no exports, not listed, numbered pages",
            options: SiteOptions(
                title: "Acme & \"Sons\" <HQ> 'π' \u{202E}", hideFields: ["mobilePhone", "extensionAttribute2"],
                exports: [], indexListLimit: 10),
            people: people + bulk),
        Configuration(
            name: "one export, managers hidden",
            options: SiteOptions(title: "ディレクトリ", hideFields: ["manager", "jobTitle"], exports: [.json]),
            people: people),
        Configuration(
            name: "a night longer than the change overview lists", options: SiteOptions(), people: people + bulk,
            history: longHistory),
    ]

    /// Every file under `folder`, by relative path.
    static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = folder.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
        for case let path as String in walker {
            var isFolder: ObjCBool = false
            let full = root + "/" + path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return files
    }

    /// Where two renderings of one file part: the first differing line of each.
    static func firstDifference(_ left: Data, _ right: Data) -> String {
        let leftLines = String(decoding: left, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let rightLines = String(decoding: right, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        for (number, pair) in zip(leftLines, rightLines).enumerated() where pair.0 != pair.1 {
            return "line \(number + 1):\n  compiled: \(pair.0)\n  mustache: \(pair.1)"
        }
        return "lengths \(left.count) and \(right.count)"
    }

    /// A templates folder holding every built-in template as it is: everything renders through Mustache.
    static func allBuiltinsFolder() throws -> URL {
        try SiteTemplateTests.folder(
            Dictionary(uniqueKeysWithValues: BuiltinTemplates.templates.map { ("\($0.key).mustache", $0.value) }))
    }

    @Test("compiled templates write every file byte for byte as Mustache does", arguments: configurations)
    func everyFileIdentical(configuration: Configuration) async throws {
        let templates = try Self.allBuiltinsFolder()
        defer { try? FileManager.default.removeItem(at: templates) }
        var mustacheOptions = configuration.options
        mustacheOptions.templatesDirectory = templates
        let (compiled, _) = try await SiteFixtures.renderSite(
            configuration.people, options: configuration.options, history: configuration.history)
        defer { try? FileManager.default.removeItem(at: compiled) }
        let (mustache, _) = try await SiteFixtures.renderSite(
            configuration.people, options: mustacheOptions, history: configuration.history)
        defer { try? FileManager.default.removeItem(at: mustache) }

        let compiledFiles = try Self.files(in: compiled)
        let mustacheFiles = try Self.files(in: mustache)
        #expect(compiledFiles.count > 100)
        #expect(Set(compiledFiles.keys) == Set(mustacheFiles.keys))
        var differing: [String] = []
        for (path, bytes) in compiledFiles.sorted(by: { $0.key < $1.key }) {
            guard let reference = mustacheFiles[path], reference != bytes else { continue }
            differing.append(path)
            if differing.count <= 3 { Issue.record("\(path) differs, \(Self.firstDifference(bytes, reference))") }
        }
        #expect(differing.isEmpty, "\(differing.count) files differ: \(differing.prefix(10))")
        // The fixture reaches what it is meant to: pagers, hidden fields, awkward values in every kind of page.
        #expect(compiledFiles.keys.contains { $0.hasPrefix("browse/b-3") } == (configuration.people.count > 1_000))
        let markdown = compiledFiles.filter { $0.key.hasPrefix("people/") && $0.key.hasSuffix(".md") }.values
            .map { String(decoding: $0, as: UTF8.self) }
        #expect(markdown.count == configuration.people.count)
        #expect(markdown.contains { $0.contains("## History") })
        let managersShown = !configuration.options.hideFields.contains("manager")
        #expect(markdown.contains { $0.contains("## Direct reports") } == managersShown)
        #expect(markdown.contains { $0.contains("\\<script\\>") })
        let overview = compiledFiles["changes.html"].map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(overview.contains("more than listed here") == (configuration.history.entries.count > 3))
    }

    @Test("an override of one partial sends the pages using it through Mustache, the rest stay compiled")
    func overrideOfOnePartial() async throws {
        let templates = try SiteTemplateTests.folder([
            "person-row.mustache": "<li class=\"custom\">{{name}}</li>\n"
        ])
        defer { try? FileManager.default.removeItem(at: templates) }
        let set = try TemplateSet(overriding: templates)
        typealias Compiled = SiteRenderJob.CompiledPage
        #expect(set.isBuiltin(Compiled.layout) && set.isBuiltin(Compiled.person))
        #expect(set.isBuiltin(Compiled.personMarkdown))
        #expect(!set.isBuiltin(Compiled.index) && !set.isBuiltin(Compiled.letter))
        #expect(!set.isBuiltin(Compiled.department))

        let people = Self.people
        let (custom, _) = try await SiteFixtures.renderSite(
            people, options: SiteOptions(templatesDirectory: templates))
        defer { try? FileManager.default.removeItem(at: custom) }
        let (plain, _) = try await SiteFixtures.renderSite(people)
        defer { try? FileManager.default.removeItem(at: plain) }
        let customFiles = try Self.files(in: custom)
        let plainFiles = try Self.files(in: plain)
        for (path, bytes) in customFiles {
            let isList =
                path == "index.html" || (path.hasPrefix("browse/") && path != "browse/index.html")
                || path.hasPrefix("departments/")
            let text = String(decoding: bytes, as: UTF8.self)
            if isList {
                #expect(text.contains("<li class=\"custom\">"), "\(path)")
                #expect(!text.contains("<li class=\"person\">"), "\(path)")
            } else {
                #expect(bytes == plainFiles[path], "\(path)")
            }
        }
    }

    @Test("each built-in template is compiled only while it and its partials are built in")
    func compiledOnlyWhenBuiltin() throws {
        typealias Compiled = SiteRenderJob.CompiledPage
        let builtin = try TemplateSet(overriding: nil)
        for names in [
            Compiled.layout, Compiled.person, Compiled.personMarkdown, Compiled.index, Compiled.letter,
            Compiled.changes,
            Compiled.change,
        ] {
            #expect(builtin.isBuiltin(names))
        }
        for (file, page) in [
            ("layout", Compiled.layout), ("person.md", Compiled.personMarkdown), ("letters", Compiled.index),
            ("pager", Compiled.department), ("letter", Compiled.letter), ("change-night", Compiled.changes),
            ("change-night", Compiled.change), ("changes", Compiled.changes), ("change", Compiled.change),
        ] {
            let folder = try SiteTemplateTests.folder(["\(file).mustache": BuiltinTemplates.templates[file] ?? ""])
            defer { try? FileManager.default.removeItem(at: folder) }
            #expect(!(try TemplateSet(overriding: folder)).isBuiltin(page), "\(file)")
        }
    }
}
