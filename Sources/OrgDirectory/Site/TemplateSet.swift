import Foundation
import Mustache

/// The parsed page templates and static assets: the built-in ones, each optionally replaced by a file of the
/// same name in the `templates` folder. Parsed and checked once; shared read-only by all render tasks.
struct TemplateSet: Sendable {
    /// Where each template came from, for error messages (`built-in:person.mustache` or a path).
    let sources: [String: String]
    /// The templates that come from the binary (`isBuiltin`), worked out once: asked several times for every
    /// person page, comparing each source with a `built-in:…` string made for the purpose cost an allocation each.
    let builtinNames: Set<String>
    /// Asset files by relative path (`assets/site.css`), written to the site as they are.
    let assets: [String: [UInt8]]
    /// A digest of every template text and asset, so a changed set invalidates stored render fingerprints.
    let fingerprint: RenderFingerprint
    private let library: MustacheLibrary

    /// Templates whose values are escaped for Markdown rather than HTML.
    static let markdownTemplates: Set<String> = ["person.md"]
    /// Prepended to Markdown templates; swift-mustache switches escaping with this pragma.
    private static let markdownPragma = "{{% CONTENT_TYPE: MARKDOWN}}"

    /// Registers the Markdown content type once (swift-mustache keeps content types in a global table).
    private static let markdownContentTypeRegistered: Bool = {
        MustacheContentTypes.register(MarkdownContentType(), named: "MARKDOWN")
        return true
    }()

    /// Loads the built-in templates, applies overrides from `directory`, parses and checks everything.
    init(overriding directory: URL?) throws(SiteError) {
        _ = Self.markdownContentTypeRegistered
        var texts: [String: (text: String, source: String)] = [:]
        for (name, text) in BuiltinTemplates.templates { texts[name] = (text, Self.builtinSource(name)) }
        var assets: [String: [UInt8]] = [:]
        for (path, text) in BuiltinTemplates.assets { assets[path] = Array(text.utf8) }
        if let directory {
            let overrides = try Self.readOverrides(in: directory)
            for (name, override) in overrides.templates { texts[name] = override }
            for (path, bytes) in overrides.assets { assets[path] = bytes }
        }
        var library = MustacheLibrary()
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) {
            let isMarkdown = Self.markdownTemplates.contains(name)
            do {
                let template = try MustacheTemplate(string: isMarkdown ? Self.markdownPragma + entry.text : entry.text)
                library.register(template, named: name)
            } catch let error as MustacheTemplate.ParserError {
                let line = error.context.lineNumber
                var column = error.context.columnNumber
                if isMarkdown, line == 1 { column = max(1, column - Self.markdownPragma.count) }
                throw .templateSyntax(file: entry.source, line: line, column: column, reason: "\(error.error)")
            } catch {
                throw .templateSyntax(file: entry.source, line: 1, column: 1, reason: "\(error)")
            }
        }
        try Self.check(texts, known: Set(texts.keys))
        self.library = library
        self.assets = assets
        self.sources = texts.mapValues(\.source)
        self.builtinNames = Set(texts.keys.filter { texts[$0]?.source == Self.builtinSource($0) })
        self.fingerprint = Self.fingerprint(texts: texts.mapValues(\.text), assets: assets)
    }

    /// Renders template `name` with `context`; a template that renders nothing is an error, never a blank page.
    func render(_ name: String, _ context: [String: Any]) throws(SiteError) -> String {
        guard let text = library.render(context, withTemplate: name) else { throw .renderFailed(template: name) }
        return text
    }

    /// Checks every tag: partials must exist and variables must be ones the page provides.
    private static func check(_ texts: [String: (text: String, source: String)], known: Set<String>) throws(SiteError) {
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) {
            let vocabulary = TemplateVocabulary.names(for: name)
            for tag in MustacheTagScanner.tags(in: entry.text) {
                switch tag.kind {
                case .partial, .parent:
                    if !known.contains(tag.name) {
                        throw .missingPartial(file: entry.source, line: tag.line, column: tag.column, name: tag.name)
                    }
                case .variable, .unescaped, .section, .inverted:
                    guard let lookup = MustacheTagScanner.lookupName(tag.name) else { continue }
                    if !vocabulary.contains(lookup), !TemplateVocabulary.mustacheNames.contains(lookup) {
                        throw .unknownVariable(file: entry.source, line: tag.line, column: tag.column, name: tag.name)
                    }
                case .close, .block, .comment, .pragma, .delimiters:
                    continue
                }
            }
        }
    }

    /// Reads `*.mustache` files (any subset of the built-in names, plus extra partials) and `assets/*`.
    private static func readOverrides(
        in directory: URL
    ) throws(SiteError) -> (templates: [String: (text: String, source: String)], assets: [String: [UInt8]]) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .templatesFolderMissing(path: directory.path)
        }
        var templates: [String: (text: String, source: String)] = [:]
        var assets: [String: [UInt8]] = [:]
        let entries: [String]
        do {
            entries = try fileManager.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .templateUnreadable(file: directory.path, reason: error.localizedDescription)
        }
        for entry in entries where entry.hasSuffix(".mustache") {
            let url = directory.appendingPathComponent(entry)
            do {
                let data = try Data(contentsOf: url)
                guard let text = String(data: data, encoding: .utf8) else {
                    throw SiteError.templateUnreadable(file: url.path, reason: "not UTF-8 text")
                }
                templates[String(entry.dropLast(".mustache".count))] = (text, url.path)
            } catch let error as SiteError {
                throw error
            } catch {
                throw .templateUnreadable(file: url.path, reason: error.localizedDescription)
            }
        }
        let assetsFolder = directory.appendingPathComponent("assets")
        if let names = try? fileManager.contentsOfDirectory(atPath: assetsFolder.path) {
            for name in names where !name.hasPrefix(".") {
                let url = assetsFolder.appendingPathComponent(name)
                var isFolder: ObjCBool = false
                guard fileManager.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
                    continue
                }
                do {
                    assets["assets/\(name)"] = Array(try Data(contentsOf: url))
                } catch {
                    throw .templateUnreadable(file: url.path, reason: error.localizedDescription)
                }
            }
        }
        return (templates, assets)
    }
}

/// Escapes `{{value}}` in Markdown templates for Markdown instead of HTML.
private struct MarkdownContentType: MustacheContentType {
    func escapeText(_ text: String) -> String {
        SiteEscaping.markdown(text)
    }
}
