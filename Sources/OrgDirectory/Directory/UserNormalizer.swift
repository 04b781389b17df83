import Foundation

/// Turns Graph's raw user objects into clean `User` values.
///
/// Graph sends explicit nulls, empty strings, stray whitespace and `[]` or `[null]` phone lists; the site and
/// the diff must not see any difference between "missing" and "blank". Users without an id are dropped and
/// counted, because nothing downstream can key them.
public struct UserNormalizer: Sendable {
    public init() {}

    /// Normalizes one user, or returns nil when it has no id.
    public func normalize(_ raw: GraphUser) -> User? {
        guard let id = clean(raw.id) else { return nil }
        let upn = clean(raw.userPrincipalName) ?? id
        let given = clean(raw.givenName)
        let surname = clean(raw.surname)
        let composed = [given, surname].compactMap { $0 }.joined(separator: " ")
        let displayName = clean(raw.displayName) ?? (composed.isEmpty ? upn : composed)
        var phones: [String] = []
        for phone in raw.businessPhones ?? [] {
            if let phone = clean(phone), !phones.contains(phone) { phones.append(phone) }
        }
        var extra: [String: String] = [:]
        for (key, value) in raw.extra {
            if let value = clean(value) { extra[key] = value }
        }
        let manager = raw.manager.flatMap { manager in
            clean(manager.id).map { ManagerReference(id: $0, displayName: clean(manager.displayName)) }
        }
        return User(
            id: id, userPrincipalName: upn, displayName: displayName, givenName: given, surname: surname,
            mail: clean(raw.mail), businessPhones: phones, mobilePhone: clean(raw.mobilePhone),
            jobTitle: clean(raw.jobTitle), department: clean(raw.department),
            officeLocation: clean(raw.officeLocation), companyName: clean(raw.companyName),
            accountEnabled: raw.accountEnabled, userType: clean(raw.userType), employeeId: clean(raw.employeeId),
            preferredLanguage: clean(raw.preferredLanguage), manager: manager, extra: extra)
    }

    /// Trims whitespace (including non-breaking spaces and line breaks) and turns blank into nil.
    func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        if Self.isAlreadyClean(text) { return text }
        return Self.cleanedThroughFoundation(text)
    }

    /// `clean` without the fast path: Foundation's trimming and a split on whitespace. Kept apart so tests can
    /// hold the fast path to it.
    static func cleanedThroughFoundation(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: Self.trimmed)
        guard !trimmed.isEmpty else { return nil }
        // Inner runs of whitespace and line breaks collapse to one space: names are single-line values.
        if trimmed.contains(where: { $0.isNewline || $0 == "\t" || $0 == "\u{00A0}" }) || trimmed.contains("  ") {
            return trimmed.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        return trimmed
    }

    /// What `clean` trims, built once: building the union per value was a visible part of a 100,000-person run.
    private static let trimmed = CharacterSet.whitespacesAndNewlines.union(.controlCharacters)

    /// The common case, decided in one pass over the bytes: no space at either end or two in a row, and every
    /// other character printable ASCII or a letter, mark, number, punctuation or symbol beyond ASCII, which
    /// `clean` would return unchanged. Names beyond ASCII (Jürgen, José, 王) are common in real tenants: through
    /// Foundation they were most of normalizing a page.
    static func isAlreadyClean(_ text: String) -> Bool {
        var previousWasSpace = true
        var clean = true
        var beyondASCII = false
        var copy = text
        copy.withUTF8 { bytes in
            for byte in bytes {
                if byte == 0x20 {
                    if previousWasSpace {
                        clean = false
                        return
                    }
                    previousWasSpace = true
                } else if byte > 0x20 && byte < 0x7F {
                    previousWasSpace = false
                } else if byte >= 0x80 {
                    beyondASCII = true
                    previousWasSpace = false
                } else {
                    clean = false
                    return
                }
            }
        }
        guard clean, !previousWasSpace else { return false }
        return !beyondASCII || text.unicodeScalars.allSatisfy { $0.isASCII || isPlainBeyondASCII($0) }
    }

    /// A scalar beyond ASCII that Foundation never trims and that never splits a name: any letter, mark, number,
    /// punctuation or symbol. Separators (Z*), controls, format characters, surrogates, private use and unassigned
    /// code points take the Foundation path, whatever version of Unicode its tables follow.
    private static func isPlainBeyondASCII(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .letterNumber, .otherNumber,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate, .privateUse,
            .unassigned:
            return false
        @unknown default:
            return false
        }
    }
}
