import Foundation

/// A phone number as written in the directory, with the `tel:` URI and digits orgdir derives from it.
///
/// The link normalizes to E.164 where the number says enough (`+1 (425) 555-0134` → `tel:+14255550134`,
/// `0049 30 1234` → `tel:+49301234`, `+49 (0)30 1234` → `tel:+49301234`) and keeps local numbers as
/// digits; extensions (`x12`, `ext. 12`) become `;ext=12`. The page always shows the number as written.
struct TelephoneLink: Sendable, Equatable {
    /// The number as the directory has it.
    var written: String
    /// `tel:` URI, or nil when the text holds too few digits to dial.
    var uri: String?
    /// Digits to search in: the written digits, plus the E.164 digits when they differ (space-separated).
    var searchDigits: String

    init(_ written: String) {
        self.written = written
        var main = Substring(written)
        var ext = ""
        // Every marker holds an `x` or is `#`, and only ASCII `X` lowercases to `x`: most numbers have neither,
        // and skip the lowercased copy and four Foundation searches.
        let mayHaveExtension = written.utf8.contains { $0 == 0x78 || $0 == 0x58 || $0 == 0x23 }
        let lower = mayHaveExtension ? written.lowercased() : ""
        for marker in ["ext.", "ext", "x", "#"] where mayHaveExtension {
            if let range = lower.range(of: marker),
                lower[lower.startIndex..<range.lowerBound].contains(where: \.isNumber)
            {
                let offset = lower.distance(from: lower.startIndex, to: range.lowerBound)
                let cut = written.index(written.startIndex, offsetBy: offset)
                main = written[..<cut]
                ext = String(written[cut...].filter { $0.isASCII && $0.isNumber })
                break
            }
        }
        let trimmed = main.drop(while: { $0 == " " })
        let international = trimmed.hasPrefix("+")
        let withoutTrunk = international ? String(trimmed).replacingAll("(0)", with: "") : String(trimmed)
        var digits = withoutTrunk.filter { $0.isASCII && $0.isNumber }
        var plus = international
        if !plus, digits.hasPrefix("00"), digits.count > 4 {
            digits.removeFirst(2)
            plus = true
        }
        let writtenDigits = String(main.filter { $0.isASCII && $0.isNumber })
        if digits.count >= 3 {
            uri = "tel:" + (plus ? "+" : "") + digits + (ext.isEmpty ? "" : ";ext=" + ext)
        } else {
            uri = nil
        }
        searchDigits = writtenDigits == digits || digits.isEmpty ? writtenDigits : writtenDigits + " " + digits
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation's regex machinery.
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, utf8.contains(where: { $0 == target.utf8.first }), contains(target) else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
