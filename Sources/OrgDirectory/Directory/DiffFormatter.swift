import Foundation

/// Turns a `DiffReport` into text, Markdown, HTML or JSON.
///
/// Every format lists the same things in the same order: joiners, leavers, then changed people with their moves
/// called out, people sorted by name so a reader can scan them. Directory values are untrusted: each format
/// escapes them for where they land, and the text format also defuses terminal control sequences.
public struct DiffFormatter: Sendable {
    public var format: DiffFormat
    /// ANSI colours in the text format; `orgdir diff` turns them on only for a terminal without `NO_COLOR`.
    public var colour: Bool

    public init(format: DiffFormat, colour: Bool = false) {
        self.format = format
        self.colour = colour
    }

    /// The report in this formatter's format, ending with a newline.
    public func render(_ report: DiffReport) throws(SnapshotError) -> String {
        switch format {
        case .text: renderText(report)
        case .markdown: renderMarkdown(report)
        case .html: renderHTML(report)
        case .json: try renderJSON(report)
        }
    }

    /// Whether colour suits this process's standard output: a terminal, `NO_COLOR` unset or empty, not `dumb`.
    public static func wantsColour(
        isTerminal: Bool = isatty(STDOUT_FILENO) == 1,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        guard isTerminal else { return false }
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    // MARK: Shared by the formats

    /// People in reading order: by name, then by id so equal names still come out the same every time.
    static func byName(_ people: [User]) -> [User] {
        people.sorted { ($0.displayName.lowercased(), $0.id) < ($1.displayName.lowercased(), $1.id) }
    }

    static func byName(_ changes: [PersonChange]) -> [PersonChange] {
        changes.sorted { ($0.displayName.lowercased(), $0.id) < ($1.displayName.lowercased(), $1.id) }
    }

    /// Title and department, the words that place a person ("Engineer, Sales"), or nil when neither is known.
    static func role(of user: User) -> String? {
        let parts = [user.jobTitle, user.department].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// A field value for reading; an empty field is "(none)".
    static func value(_ text: String?) -> String { text ?? "(none)" }

    /// "2026-03-04 02:00 UTC".
    static func day(_ date: Date) -> String {
        let stamp = SnapshotName.stamp(for: date)  // 2026-03-04T02-00-00Z
        let characters = Array(stamp)
        guard characters.count >= 16 else { return stamp }
        return String(characters[0..<10]) + " " + String(characters[11..<13]) + ":" + String(characters[14..<16])
            + " UTC"
    }

    /// "2026-03-04T02-00-00Z.json (1234 people, 2026-03-04 02:00 UTC)", with the name passed through `escape`
    /// (names come from the command line and may hold anything).
    static func describe(_ side: DiffReport.Side, escape: (String) -> String) -> String {
        escape(side.name) + " (\(side.people) people, \(day(side.takenAt)))"
    }

    /// Replaces control characters and bidirectional overrides with visible `\u{…}` escapes, so a hostile name
    /// can neither send terminal escape sequences nor reverse the text around it.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafeScalar) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafeScalar(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isUnsafeScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0 and C1 controls, including ESC and CSI
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true  // bidi marks and overrides
        case 0x2028, 0x2029: true  // line and paragraph separators
        default: false
        }
    }
}
