import Foundation
import Testing

@testable import OrgDirectory

@Suite("Site templates")
struct SiteTemplateTests {
    /// A templates folder holding `files` (relative path → text).
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = try SiteFixtures.temporaryFolder()
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    @Test("every built-in template parses and passes the name check")
    func builtinsValid() throws {
        let set = try TemplateSet(overriding: nil)
        #expect(set.sources["person.md"] == "built-in:person.md.mustache")
        #expect(set.assets["assets/search.js"] != nil)
    }

    @Test("an override folder replaces only the templates and assets it holds")
    func partialOverride() async throws {
        let templates = try Self.folder([
            "person.md.mustache": "# {{name}} (custom)\n\n{{#jobTitle}}Role: {{jobTitle}}{{/jobTitle}}\n",
            "assets/site.css": "body { color: red }\n",
            "assets/logo.txt": "logo\n",
        ])
        defer { try? FileManager.default.removeItem(at: templates) }
        let (site, _) = try await SiteFixtures.renderSite(
            SiteFixtures.friendly, options: SiteOptions(templatesDirectory: templates))
        defer { try? FileManager.default.removeItem(at: site) }
        let slug = Slug.make(for: SiteFixtures.jurgen)
        #expect(
            try SiteFixtures.read(site, "people/\(slug).md") == "# Jürgen Müller (custom)\n\nRole: Senior Engineer\n")
        #expect(try SiteFixtures.read(site, "people/\(slug).html").contains("<h1>Jürgen Müller (custom)</h1>"))
        #expect(try SiteFixtures.read(site, "assets/site.css") == "body { color: red }\n")
        #expect(try SiteFixtures.read(site, "assets/logo.txt") == "logo\n")
        #expect(try SiteFixtures.read(site, "assets/search.js") == BuiltinTemplates.assets["assets/search.js"])
        #expect(try SiteFixtures.read(site, "index.html").contains("id=\"search-input\""))
    }

    @Test(
        "template errors name the file, line and column",
        arguments: [
            ("index.mustache", "<h1>{{title}}</h1>\n<p>\n  {{nmae}}</p>\n", SiteErrorKind.unknownVariable, 3, 3),
            ("layout.mustache", "<html>\n{{#scripts}}\n{{/script}}\n", SiteErrorKind.syntax, 3, 4),
            ("person.mustache", "{{{markdownHTML}}}\n\n    {{>footer}}\n", SiteErrorKind.missingPartial, 3, 5),
            ("person.md.mustache", "# {{name}}\n{{#phones}}{{number}}\n", SiteErrorKind.syntax, 3, 1),
        ])
    func errorLocation(file: String, text: String, kind: SiteErrorKind, line: Int, column: Int) throws {
        let templates = try Self.folder([file: text])
        defer { try? FileManager.default.removeItem(at: templates) }
        let path = templates.appendingPathComponent(file).path
        #expect {
            _ = try SiteRenderer(options: SiteOptions(templatesDirectory: templates))
        } throws: { error in
            guard let error = error as? SiteError else { return false }
            let description = error.errorDescription ?? ""
            switch (error, kind) {
            case (.unknownVariable(let f, let l, let c, _), .unknownVariable),
                (.templateSyntax(let f, let l, let c, _), .syntax),
                (.missingPartial(let f, let l, let c, _), .missingPartial):
                return f == path && l == line && c == column
                    && description.hasPrefix("\(path):\(line):\(column): error:")
            default:
                return false
            }
        }
    }

    @Test("a missing templates folder is an error, not an empty library")
    func missingFolder() {
        #expect(throws: SiteError.templatesFolderMissing(path: "/nonexistent/orgdir-templates")) {
            _ = try SiteRenderer(
                options: SiteOptions(templatesDirectory: URL(fileURLWithPath: "/nonexistent/orgdir-templates")))
        }
    }

    @Test("extra partials in the folder can be used by overridden templates")
    func extraPartial() async throws {
        let templates = try Self.folder([
            "note.mustache": "<p class=\"note\">Internal use only</p>\n",
            "person.mustache": "{{{markdownHTML}}}\n{{>note}}\n",
        ])
        defer { try? FileManager.default.removeItem(at: templates) }
        let (site, _) = try await SiteFixtures.renderSite(
            [SiteFixtures.jurgen], options: SiteOptions(templatesDirectory: templates))
        defer { try? FileManager.default.removeItem(at: site) }
        let html = try SiteFixtures.read(site, "people/\(Slug.make(for: SiteFixtures.jurgen)).html")
        #expect(html.contains("<p class=\"note\">Internal use only</p>"))
    }

    @Test("the tag scanner follows set-delimiter tags and transforms")
    func scanner() {
        let tags = MustacheTagScanner.tags(in: "{{a}}\n{{=<% %>=}}<% b %> {{c}} <%# count(d) %><%/ count(d) %>")
        #expect(tags.map(\.name) == ["a", "<% %>=", "b", "count(d)", "count(d)"])
        #expect(tags[2].line == 2 && tags[2].column == 12)
        #expect(MustacheTagScanner.lookupName("count(people)") == "people")
        #expect(MustacheTagScanner.lookupName("manager.name") == "manager")
        #expect(MustacheTagScanner.lookupName(".") == nil)
    }
}

/// Which template error a table row expects.
enum SiteErrorKind: Sendable {
    case syntax, unknownVariable, missingPartial
}
