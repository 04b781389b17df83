/// The Markdown format: for a wiki page, a pull request or a chat message.
extension DiffFormatter {
    func renderMarkdown(_ report: DiffReport) -> String {
        let diff = report.diff
        var lines = [
            "# Directory changes", "",
            "From " + Self.describe(report.old, escape: Self.markdown) + " to "
                + Self.describe(report.new, escape: Self.markdown) + ".", "",
        ]
        guard !diff.isEmpty else {
            lines.append("No changes.")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("**" + report.summary.description + "**")
        if !diff.joiners.isEmpty {
            lines += ["", "## Joined (\(diff.joiners.count))", ""]
            for user in Self.byName(diff.joiners) { lines.append("- " + person(user)) }
        }
        if !diff.leavers.isEmpty {
            lines += ["", "## Left (\(diff.leavers.count))", ""]
            for user in Self.byName(diff.leavers) { lines.append("- " + person(user)) }
        }
        if !diff.changed.isEmpty {
            lines += ["", "## Changed (\(diff.changed.count))", ""]
            for change in Self.byName(diff.changed) {
                lines.append("- **" + Self.markdown(change.displayName) + "**")
                for field in change.fieldChanges {
                    lines.append(
                        "  - " + Self.markdown(field.label) + ": " + value(field.old) + " → " + value(field.new)
                            + (field.isMove ? " *(moved)*" : ""))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A field value, or an emphasized "(none)" that cannot be mistaken for a value.
    private func value(_ text: String?) -> String {
        text.map(Self.markdown) ?? "*(none)*"
    }

    private func person(_ user: User) -> String {
        var text = "**" + Self.markdown(user.displayName) + "**"
        if let role = Self.role(of: user) { text += " — " + Self.markdown(role) }
        if let mail = user.mail { text += " (" + Self.markdown(mail) + ")" }
        return text
    }

    /// Escapes a value for inline Markdown (values never start a line here): a backslash before every character
    /// that can open an inline construct (emphasis, code, links and images, raw HTML, entities, GFM
    /// strikethrough and tables), so no value can become markup; line breaks and other controls are made
    /// visible so a value cannot start a new block.
    static func markdown(_ text: String) -> String {
        var result = ""
        for scalar in printable(text).unicodeScalars {
            if markdownPunctuation.contains(scalar) {
                result.unicodeScalars.append("\\")
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// The characters that can open inline markup; CommonMark lets a backslash escape each of them.
    private static let markdownPunctuation = Set("\\`*_[]<>!&~|#".unicodeScalars)
}
