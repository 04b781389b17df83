import Foundation

/// Turns a Latin-script name into the ASCII letters a mail alias is made of ("Jürgen Müller" → "jurgen",
/// "muller"): Graph UPNs allow only ASCII, so real tenants fold names the same way.
enum ASCIIFolding {
    /// Letters that do not decompose into base letter + accent and need an explicit spelling.
    private static let special: [Character: String] = [
        "ß": "ss", "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "œ": "oe", "Œ": "oe", "ł": "l", "Ł": "l",
        "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "ı": "i", "ħ": "h",
    ]

    /// Lowercase ASCII letters and digits only; everything else (spaces, apostrophes, hyphens) is dropped.
    static func alias(_ text: String) -> String {
        var out = ""
        for character in text {
            if let replacement = special[character] {
                out += replacement
                continue
            }
            let base = String(character).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            for scalar in base.unicodeScalars where scalar.isASCII {
                let char = Character(scalar)
                if char.isLetter || char.isNumber {
                    out += String(char).lowercased()
                }
            }
        }
        return out
    }
}
