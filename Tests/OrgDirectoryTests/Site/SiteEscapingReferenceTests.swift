import Foundation
import Testing

@testable import OrgDirectory

/// The one-pass UTF-8 escaping against the plain scalar-by-scalar definitions it replaced, on random mixes of
/// the characters each rule is about.
@Suite("Site escaping against its reference definitions")
struct SiteEscapingReferenceTests {
    /// `displayText` as first written: scalar by scalar.
    static func referenceDisplayText(_ value: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            if SiteEscaping.isBidiControl(scalar) { continue }
            let isControl = scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
            result.append(isControl ? " " : scalar)
        }
        return String(result)
    }

    /// `markdown` as first written: the lowercased copy decides about dots.
    static func referenceMarkdown(_ value: String) -> String {
        let text = referenceDisplayText(value)
        let escapeDots = text.utf8.count >= 4 && text.lowercased().contains("www.")
        var bytes: [UInt8] = []
        var leadingDigits = true
        for (position, byte) in Array(text.utf8).enumerated() {
            var escape = Array("\\`*_{}[]()<>#!|~&:@".utf8).contains(byte) || (escapeDots && byte == 0x2E)
            if position == 0, byte == 0x2D || byte == 0x2B || byte == 0x3D { escape = true }
            if leadingDigits {
                if byte >= 0x30 && byte <= 0x39 {
                } else {
                    if position > 0, byte == 0x2E || byte == 0x29 { escape = true }
                    leadingDigits = false
                }
            }
            if escape { bytes.append(0x5C) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let pieces: [String] = [
        "w", "W", "ww", ".", "www.", "WwW.", "1", "9.", "-", "+", "=", ")", "*", "a", " ", "\t", "\n", "\u{7F}",
        "\u{85}", "\u{9F}", "\u{A0}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2066}", "\u{2069}", "\u{206A}",
        "\u{2029}",
        "\u{301}", "\u{600}", "é", "王", "👍🏽", "ß", "İ", "Ｗ", "\u{2028}", "ⓦ",
    ]

    @Test("displayText and markdown give what their reference definitions give")
    func randomMixes() {
        var random = DirectoryDiffFileTests.Random(state: 11)
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...7, using: &random)
            let value = (0..<length).map { _ in Self.pieces.randomElement(using: &random) ?? "" }.joined()
            let scalars = value.unicodeScalars.map { String($0.value, radix: 16) }
            #expect(SiteEscaping.displayText(value) == Self.referenceDisplayText(value), "\(scalars)")
            #expect(SiteEscaping.markdown(value) == Self.referenceMarkdown(value), "\(scalars)")
            var appended: [UInt8] = [0x41]
            SiteEscaping.appendMarkdown(value, to: &appended)
            #expect(appended == [0x41] + Array(Self.referenceMarkdown(value).utf8), "\(scalars)")
        }
    }
}
