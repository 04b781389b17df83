import Foundation
import Testing

@testable import OrgDirectory

/// The stylesheet's promises that a browser cannot easily check for us: WCAG AA contrast of every text colour
/// on every background it is used on, in light and dark mode, and no external fonts or resources.
@Suite("Site stylesheet")
struct SiteStyleTests {
    static var css: String { BuiltinTemplates.assets["assets/site.css"] ?? "" }

    /// The `--name: #rrggbb` custom properties of the first `:root { … }` after `marker`.
    static func palette(after marker: String) -> [String: String] {
        guard let start = css.range(of: marker), let root = css[start.upperBound...].range(of: ":root {"),
            let end = css[root.upperBound...].range(of: "}")
        else { return [:] }
        var colours: [String: String] = [:]
        for declaration in css[root.upperBound..<end.lowerBound].split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if parts.count == 2, parts[0].hasPrefix("--"), parts[1].hasPrefix("#") { colours[parts[0]] = parts[1] }
        }
        return colours
    }

    /// WCAG 2 relative luminance of `#rrggbb`.
    static func luminance(_ hex: String) -> Double {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        func channel(_ shift: Int) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.039_28 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }

    static func contrast(_ first: String, _ second: String) -> Double {
        let (a, b) = (luminance(first), luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Text colour, background, minimum ratio (4.5 for text, 3 for the focus ring, a non-text indicator).
    static let pairs: [(String, String, Double)] = [
        ("--fg", "--bg", 4.5), ("--fg", "--panel", 4.5), ("--muted", "--bg", 4.5), ("--muted", "--panel", 4.5),
        ("--link", "--bg", 4.5), ("--link", "--panel", 4.5), ("--accent-fg", "--accent", 4.5),
        ("--focus", "--bg", 3), ("--focus", "--panel", 3),
    ]

    @Test("every text colour meets WCAG AA on its backgrounds", arguments: ["/* orgdir", "prefers-color-scheme: dark"])
    func contrast(mode: String) {
        let colours = Self.palette(after: mode)
        #expect(colours.count >= 9, "palette of \(mode): \(colours)")
        for (text, background, minimum) in Self.pairs {
            guard let foreground = colours[text], let behind = colours[background] else {
                Issue.record("\(mode): \(text) or \(background) missing")
                continue
            }
            let ratio = Self.contrast(foreground, behind)
            #expect(ratio >= minimum, "\(mode): \(text) \(foreground) on \(background) \(behind) is \(ratio):1")
        }
    }

    @Test("no external fonts, imports or URLs; a print layout and dark mode exist")
    func selfContained() {
        #expect(!Self.css.contains("@import") && !Self.css.contains("@font-face") && !Self.css.contains("url("))
        #expect(Self.css.contains("@media print") && Self.css.contains("@media (prefers-color-scheme: dark)"))
    }
}
