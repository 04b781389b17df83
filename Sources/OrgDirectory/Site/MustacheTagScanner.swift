/// Finds the tags of a Mustache template with their positions, so orgdir can check names before rendering
/// (swift-mustache renders an unknown variable or partial as empty text without complaint).
struct MustacheTagScanner {
    /// What a tag does.
    enum Kind: Equatable {
        case variable, unescaped, section, inverted, close, partial, parent, block, comment, pragma, delimiters
    }

    /// One tag: its kind, the name inside it and where it starts (1-based line and column).
    struct Tag: Equatable {
        var kind: Kind
        var name: String
        var line: Int
        var column: Int
    }

    /// All tags of `text` in order; set-delimiter tags are honoured.
    static func tags(in text: String) -> [Tag] {
        var tags: [Tag] = []
        let chars = Array(text)
        var open: [Character] = ["{", "{"]
        var close: [Character] = ["}", "}"]
        var index = 0
        var line = 1
        var column = 1
        /// Advances the position over `count` characters, tracking lines.
        func advance(_ count: Int) {
            for _ in 0..<count where index < chars.count {
                if chars[index] == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                index += 1
            }
        }
        func matches(_ pattern: [Character], at position: Int) -> Bool {
            guard position + pattern.count <= chars.count else { return false }
            for offset in pattern.indices where chars[position + offset] != pattern[offset] { return false }
            return true
        }
        while index < chars.count {
            guard matches(open, at: index) else {
                advance(1)
                continue
            }
            let tagLine = line
            let tagColumn = column
            advance(open.count)
            var triple = false
            if open == ["{", "{"], index < chars.count, chars[index] == "{" {
                triple = true
                advance(1)
            }
            var body: [Character] = []
            while index < chars.count, !matches(close, at: index) {
                body.append(chars[index])
                advance(1)
            }
            advance(close.count)
            if triple, index < chars.count, chars[index] == "}" { advance(1) }
            var content = String(body).trimmingWhitespace()
            var kind = Kind.variable
            if triple {
                kind = .unescaped
            } else if let first = content.first {
                let kinds: [Character: Kind] = [
                    "&": .unescaped, "#": .section, "^": .inverted, "/": .close, ">": .partial, "<": .parent,
                    "$": .block, "!": .comment, "%": .pragma, "=": .delimiters,
                ]
                if let found = kinds[first] {
                    kind = found
                    content = String(content.dropFirst()).trimmingWhitespace()
                }
            }
            if kind == .delimiters {
                let inner = content.hasSuffix("=") ? String(content.dropLast()) : content
                let parts = inner.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if parts.count == 2 {
                    open = Array(parts[0])
                    close = Array(parts[1])
                }
            }
            tags.append(Tag(kind: kind, name: content, line: tagLine, column: tagColumn))
        }
        return tags
    }

    /// The variable a tag looks up: `a.b` → `a`, a transform `count(people)` → `people`, `.` → nil.
    static func lookupName(_ name: String) -> String? {
        var name = Substring(name)
        if let open = name.lastIndex(of: "("), let close = name.firstIndex(of: ")"), open < close {
            name = name[name.index(after: open)..<close]
        }
        let trimmed = String(name).trimmingWhitespace()
        if trimmed.isEmpty || trimmed == "." { return nil }
        return trimmed.split(separator: ".").first.map(String.init)
    }
}

fileprivate extension String {
    /// The string without leading and trailing spaces, tabs and line breaks (no Foundation needed).
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
