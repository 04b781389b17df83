/// The text format: what `orgdir diff` prints on a terminal or into a cron mail.
extension DiffFormatter {
    func renderText(_ report: DiffReport) -> String {
        let diff = report.diff
        var lines = [
            paint("orgdir diff: ", .bold) + Self.describe(report.old, escape: Self.printable),
            "          → " + Self.describe(report.new, escape: Self.printable),
        ]
        guard !diff.isEmpty else {
            lines.append("No changes.")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append(report.summary.description)
        if !diff.joiners.isEmpty {
            lines.append("")
            lines.append(paint("Joined (\(diff.joiners.count))", .bold))
            for user in Self.byName(diff.joiners) { lines.append("  " + paint("+", .green) + " " + person(user)) }
        }
        if !diff.leavers.isEmpty {
            lines.append("")
            lines.append(paint("Left (\(diff.leavers.count))", .bold))
            for user in Self.byName(diff.leavers) { lines.append("  " + paint("-", .red) + " " + person(user)) }
        }
        if !diff.changed.isEmpty {
            lines.append("")
            lines.append(paint("Changed (\(diff.changed.count))", .bold))
            for change in Self.byName(diff.changed) {
                lines.append("  " + paint("~", .yellow) + " " + Self.printable(change.displayName))
                for field in change.fieldChanges {
                    lines.append(
                        "      " + Self.printable(field.label) + ": " + Self.printable(Self.value(field.old)) + " → "
                            + Self.printable(Self.value(field.new))
                            + (field.isMove ? " " + paint("(moved)", .cyan) : ""))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "Ann Lee — Engineer, Sales <ann@contoso.com>".
    private func person(_ user: User) -> String {
        var text = Self.printable(user.displayName)
        if let role = Self.role(of: user) { text += " — " + Self.printable(role) }
        if let mail = user.mail { text += " <" + Self.printable(mail) + ">" }
        return text
    }

    private enum Style: String {
        case bold = "1"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        colour ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
