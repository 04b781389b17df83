import Foundation
import Testing

@testable import OrgDirectory

/// Templates/ (what users copy and edit) and the templates compiled into the binary must never drift.
///
/// After editing Templates/, regenerate the Swift sources with
/// `ORGDIR_UPDATE_BUILTINS=1 swift test --filter SiteBuiltinTemplatesTests`.
@Suite("Site built-in templates")
struct SiteBuiltinTemplatesTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let templates = repository.appendingPathComponent("Templates")

    /// Relative path under Templates/ → text, as found on disk.
    static func onDisk() throws -> (templates: [String: String], assets: [String: String]) {
        let manager = FileManager.default
        var templates: [String: String] = [:]
        for name in try manager.contentsOfDirectory(atPath: Self.templates.path) where name.hasSuffix(".mustache") {
            templates[String(name.dropLast(".mustache".count))] = try String(
                contentsOf: Self.templates.appendingPathComponent(name), encoding: .utf8)
        }
        var assets: [String: String] = [:]
        let folder = Self.templates.appendingPathComponent("assets")
        for name in try manager.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            assets["assets/" + name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return (templates, assets)
    }

    @Test("Templates/ holds exactly the built-in templates and assets, byte for byte")
    func noDrift() throws {
        let disk = try Self.onDisk()
        if ProcessInfo.processInfo.environment["ORGDIR_UPDATE_BUILTINS"] == "1" {
            try Self.regenerate(disk)
            return
        }
        let hint =
            "Templates/ and BuiltinTemplates*.swift differ: run ORGDIR_UPDATE_BUILTINS=1 swift test --filter SiteBuiltinTemplatesTests"
        #expect(Set(disk.templates.keys) == Set(BuiltinTemplates.templates.keys), "\(hint)")
        #expect(Set(disk.assets.keys) == Set(BuiltinTemplates.assets.keys), "\(hint)")
        for (name, text) in disk.templates { #expect(BuiltinTemplates.templates[name] == text, "\(name): \(hint)") }
        for (path, text) in disk.assets { #expect(BuiltinTemplates.assets[path] == text, "\(path): \(hint)") }
    }

    /// Rewrites BuiltinTemplates.swift and BuiltinTemplates+Assets.swift from Templates/.
    static func regenerate(_ disk: (templates: [String: String], assets: [String: String])) throws {
        func literal(_ text: String) -> String {
            // A multi-line raw string drops the line break before its closing delimiter (add one back) and strips
            // the closing delimiter's indentation from every line (indent to match swift-format).
            let body = text + "\n"
            let indented = body.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "" : "        " + $0
            }
            return "#\"\"\"\n" + indented.joined(separator: "\n") + "        \"\"\"#"
        }
        func entries(_ values: [String: String]) -> String {
            values.sorted { $0.key < $1.key }.map { "        \"\($0.key)\": \(literal($0.value))," }.joined(
                separator: "\n")
        }
        let sources = repository.appendingPathComponent("Sources/OrgDirectory/Site")
        let templates = """
            // Generated from Templates/*.mustache by SiteBuiltinTemplatesTests; a test checks they stay equal.
            // After editing Templates/, run: ORGDIR_UPDATE_BUILTINS=1 swift test --filter SiteBuiltinTemplatesTests

            /// The built-in page templates, so the binary works with no Templates folder at hand.
            enum BuiltinTemplates {
                /// Template name (file name without `.mustache`) to Mustache text.
                static let templates: [String: String] = [

            """ + entries(disk.templates) + "\n    ]\n}\n"
        let assets = """
            // Generated from Templates/assets/ by SiteBuiltinTemplatesTests; a test checks they stay equal.

            extension BuiltinTemplates {
                /// Static files by site path (`assets/site.css`), copied to every site.
                static let assets: [String: String] = [

            """ + entries(disk.assets) + "\n    ]\n}\n"
        try Data(templates.utf8).write(to: sources.appendingPathComponent("BuiltinTemplates.swift"))
        try Data(assets.utf8).write(to: sources.appendingPathComponent("BuiltinTemplates+Assets.swift"))
    }
}
