import Foundation

/// The folding rules search uses, identical in Swift (build time) and `assets/search.js` (query time).
///
/// A string is folded in two variants: `base` drops accents (ü→u, ø→o, å→a, ł→l, ß→ss) and `expanded` spells
/// the German/Nordic letters out (ü→ue, ø→oe, å→aa). The index holds tokens of both variants and a query
/// word matches through either, so "jurgen", "juergen" and "Jürgen" all find Jürgen. Non-Latin scripts are
/// only lowercased (and lose diacritics such as Greek tonos or Arabic harakat), so they match as typed.
/// The steps: NFC, lowercase, the letter table below, NFD, drop combining marks in `droppedMarks`, NFC.
public enum SearchFolding {
    /// Letters that fold differently in the two variants, or that Unicode does not decompose.
    /// Keep in sync with `FOLD_TABLE` in Templates/assets/search.js (a test compares them).
    static let letterTable: [Unicode.Scalar: (base: String, expanded: String)] = [
        "ä": ("a", "ae"), "ö": ("o", "oe"), "ü": ("u", "ue"), "ø": ("o", "oe"), "å": ("a", "aa"),
        "ß": ("ss", "ss"), "æ": ("ae", "ae"), "œ": ("oe", "oe"), "ł": ("l", "l"), "đ": ("d", "d"),
        "ð": ("d", "d"), "þ": ("th", "th"), "ı": ("i", "i"), "ħ": ("h", "h"), "ŧ": ("t", "t"),
        "ŀ": ("l", "l"), "ĳ": ("ij", "ij"), "ſ": ("s", "s"), "ς": ("σ", "σ"), "ـ": ("", ""),
    ]

    /// Combining marks removed after decomposition (accents, Arabic harakat, Hebrew points).
    /// Keep in sync with `DROPPED_MARKS` in search.js.
    static let droppedMarks: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x0591...0x05BD, 0x05BF...0x05BF, 0x05C1...0x05C2, 0x05C4...0x05C5, 0x05C7...0x05C7,
        0x064B...0x065F, 0x0670...0x0670, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
    ]

    /// Apostrophes are removed (not split on) so "O'Brien" is found by "obrien".
    static let apostrophes: Set<Unicode.Scalar> = ["'", "\u{2019}", "\u{02BC}"]

    /// Both variants of `text` folded as a whole (separators are kept).
    public static func fold(_ text: String) -> (base: String, expanded: String) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            let lower = text.lowercased()
            return (lower, lower)
        }
        let lower = text.precomposedStringWithCanonicalMapping.lowercased()
        var base = String.UnicodeScalarView()
        var expanded = String.UnicodeScalarView()
        var differs = false
        for scalar in lower.unicodeScalars {
            if let mapped = letterTable[scalar] {
                base.append(contentsOf: mapped.base.unicodeScalars)
                expanded.append(contentsOf: mapped.expanded.unicodeScalars)
                differs = differs || mapped.base != mapped.expanded
            } else {
                base.append(scalar)
                expanded.append(scalar)
            }
        }
        let foldedBase = dropMarks(String(base))
        return (foldedBase, differs ? dropMarks(String(expanded)) : foldedBase)
    }

    /// The parts of `text` between spaces (U+0020), empty ones included, when `text` is beyond ASCII and has a
    /// space; nil otherwise. Folding and tokenizing never join anything across a plain space (it is a starter
    /// that composes with nothing, is never part of a token, and ends any word for lowercasing), so the fold of
    /// `text` is its parts' folds joined by spaces and its tokens are their tokens together. Why: a display name
    /// such as "Jürgen Müller" is unique, but its words repeat thousands of times in a large directory, and
    /// folding beyond ASCII goes through Foundation's normalization (a few microseconds a value). Split by
    /// scalar, not `Character`: a space followed by a combining mark is one `Character`.
    static func spaceSeparatedParts(ofNonASCII text: String) -> [String]? {
        let bytes = text.utf8
        guard bytes.contains(0x20), !bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        // Split as bytes: a space byte is never part of another character's UTF-8, so the parts are the ones a split
        // of the scalars gives, without decoding them.
        return text.withUTF8Bytes { utf8 in
            utf8.split(separator: 0x20, omittingEmptySubsequences: false).map {
                String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self)
            }
        }
    }

    /// Search tokens of a value: both variants, split on anything but letters, marks and digits; words
    /// with apostrophes are indexed joined ("obrien") and split ("o", "brien"). Sorted, no duplicates.
    public static func indexTokens(_ text: String) -> [String] {
        asciiIndexTokens(text) ?? generalIndexTokens(text)
    }

    /// `indexTokens` of an ASCII value, straight from its bytes (nil for any other value): folding ASCII only
    /// lowercases, and the apostrophe is `'`. Why: a nightly run tokenizes every display name and mail address,
    /// and the general path (a `Set`, `String.UnicodeScalarView`s) was most of the search index's time.
    static func asciiIndexTokens(_ text: String) -> [String]? {
        let bytes = text.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var tokens: [String] = []
        var current: [UInt8] = []
        var hasApostrophe = false
        func collect(joiningApostrophes: Bool) {
            for byte in bytes {
                if byte == UInt8(ascii: "'") {
                    hasApostrophe = true
                    if joiningApostrophes { continue }
                }
                let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                if (lower >= 0x30 && lower <= 0x39) || (lower >= 0x61 && lower <= 0x7A) {
                    current.append(lower)
                } else if !current.isEmpty {
                    tokens.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                }
            }
            if !current.isEmpty {
                tokens.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        collect(joiningApostrophes: true)
        if hasApostrophe { collect(joiningApostrophes: false) }
        guard tokens.count > 1 else { return tokens }
        tokens.sort()
        var kept = 1
        for position in 1..<tokens.count where tokens[position] != tokens[kept - 1] {
            tokens[kept] = tokens[position]
            kept += 1
        }
        tokens.removeLast(tokens.count - kept)
        return tokens
    }

    /// `indexTokens` for any value.
    static func generalIndexTokens(_ text: String) -> [String] {
        let (base, expanded) = fold(text)
        var tokens = Set<String>()
        for variant in base == expanded ? [base] : [base, expanded] {
            tokens.formUnion(split(variant, apostrophesJoin: true))
            if variant.unicodeScalars.contains(where: apostrophes.contains) {
                tokens.formUnion(split(variant, apostrophesJoin: false))
            }
        }
        return tokens.sorted()
    }

    /// The words of a query in both variants, as search.js splits them (apostrophes join).
    public static func queryWords(_ text: String) -> [(base: String, expanded: String)] {
        let (base, expanded) = fold(text)
        let baseWords = split(base, apostrophesJoin: true)
        let expandedWords = split(expanded, apostrophesJoin: true)
        guard baseWords.count == expandedWords.count else { return baseWords.map { ($0, $0) } }
        return zip(baseWords, expandedWords).map { ($0, $1) }
    }

    /// Whether a scalar belongs inside a token: letters, marks and decimal digits.
    static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 {
            let value = scalar.value
            return (value >= 0x30 && value <= 0x39) || (value >= 0x61 && value <= 0x7A)
                || (value >= 0x41 && value <= 0x5A)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    private static func split(_ text: String, apostrophesJoin: Bool) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if apostrophesJoin, apostrophes.contains(scalar) { continue }
            if isTokenScalar(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    private static func dropMarks(_ text: String) -> String {
        let decomposed = text.decomposedStringWithCanonicalMapping
        guard decomposed.unicodeScalars.contains(where: isDroppedMark) else {
            return text
        }
        var kept = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars where !isDroppedMark(scalar) {
            kept.append(scalar)
        }
        return String(kept).precomposedStringWithCanonicalMapping
    }

    private static func isDroppedMark(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x0300 else { return false }
        return droppedMarks.contains { $0.contains(value) }
    }
}
