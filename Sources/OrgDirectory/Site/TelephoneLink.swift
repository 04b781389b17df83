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
        // Nearly every number is ASCII: the byte path gives the same result without Character iteration, which
        // made phone parsing about a third of building a 100,000-person site directory on one core.
        let parsed = Self.parseASCII(written) ?? Self.parseCharacters(written)
        uri = parsed.uri
        searchDigits = parsed.searchDigits
    }

    /// A link worked out before (`PreparationCache` keeps them from run to run).
    init(written: String, uri: String?, searchDigits: String) {
        self.written = written
        self.uri = uri
        self.searchDigits = searchDigits
    }

    /// The link of an all-ASCII number, byte by byte; nil when `written` holds anything else.
    static func parseASCII(_ written: String) -> (uri: String?, searchDigits: String)? {
        guard written.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let bytes = Array(written.utf8)
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var mainEnd = bytes.count
        var ext: [UInt8] = []
        if bytes.contains(where: { $0 == 0x78 || $0 == 0x58 || $0 == 0x23 }) {
            let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
            for marker in Self.extensionMarkers {
                if let start = Self.firstIndex(of: marker, in: lower), lower[..<start].contains(where: isDigit) {
                    mainEnd = start
                    ext = bytes[start...].filter(isDigit)
                    break
                }
            }
        }
        var start = 0
        while start < mainEnd, bytes[start] == 0x20 { start += 1 }
        let international = start < mainEnd && bytes[start] == 0x2B
        var digits: [UInt8] = []
        var index = start
        while index < mainEnd {
            // "(0)", the trunk prefix written inside an international number, is left out (left to right,
            // like `replacingAll`).
            if international, index + 2 < mainEnd, bytes[index] == 0x28, bytes[index + 1] == 0x30,
                bytes[index + 2] == 0x29
            {
                index += 3
                continue
            }
            if isDigit(bytes[index]) { digits.append(bytes[index]) }
            index += 1
        }
        var plus = international
        if !plus, digits.count > 4, digits[0] == 0x30, digits[1] == 0x30 {
            digits.removeFirst(2)
            plus = true
        }
        let writtenDigits = bytes[..<mainEnd].filter(isDigit)
        let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
        let uri =
            digits.count >= 3
            ? "tel:" + (plus ? "+" : "") + text(digits) + (ext.isEmpty ? "" : ";ext=" + text(ext)) : nil
        let searchDigits =
            writtenDigits == digits || digits.isEmpty ? text(writtenDigits) : text(writtenDigits) + " " + text(digits)
        return (uri, searchDigits)
    }

    /// Extension markers in the order they are tried, lowercased.
    private static let extensionMarkers: [[UInt8]] = ["ext.", "ext", "x", "#"].map { Array($0.utf8) }

    /// The first position where `needle` starts in `haystack`.
    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    /// The link of any number, Character by Character (combining marks and other scripts included).
    static func parseCharacters(_ written: String) -> (uri: String?, searchDigits: String) {
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
        let uri = digits.count >= 3 ? "tel:" + (plus ? "+" : "") + digits + (ext.isEmpty ? "" : ";ext=" + ext) : nil
        let searchDigits =
            writtenDigits == digits || digits.isEmpty ? writtenDigits : writtenDigits + " " + digits
        return (uri, searchDigits)
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
