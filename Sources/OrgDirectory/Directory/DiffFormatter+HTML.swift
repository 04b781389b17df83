/// The HTML format: a standalone page to mail or archive, with every directory value escaped.
extension DiffFormatter {
    func renderHTML(_ report: DiffReport) -> String {
        let diff = report.diff
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Directory changes</title>
            <style>
            body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;line-height:1.4}
            .joined{color:#0a6b2c}.left{color:#a3161a}.moved{font-weight:bold}
            </style>
            </head>
            <body>
            <main>
            <h1>Directory changes</h1>

            """
        html +=
            "<p>From " + Self.describe(report.old, escape: Self.isolated) + " to "
            + Self.describe(report.new, escape: Self.isolated) + ".</p>\n"
        guard !diff.isEmpty else {
            return html + "<p>No changes.</p>\n</main>\n</body>\n</html>\n"
        }
        html += "<p><strong>" + Self.html(report.summary.description) + "</strong></p>\n"
        if !diff.joiners.isEmpty {
            html += "<h2 class=\"joined\">Joined (\(diff.joiners.count))</h2>\n<ul>\n"
            for user in Self.byName(diff.joiners) { html += "<li>" + person(user) + "</li>\n" }
            html += "</ul>\n"
        }
        if !diff.leavers.isEmpty {
            html += "<h2 class=\"left\">Left (\(diff.leavers.count))</h2>\n<ul>\n"
            for user in Self.byName(diff.leavers) { html += "<li>" + person(user) + "</li>\n" }
            html += "</ul>\n"
        }
        if !diff.changed.isEmpty {
            html += "<h2>Changed (\(diff.changed.count))</h2>\n<ul>\n"
            for change in Self.byName(diff.changed) {
                html += "<li><strong>" + Self.isolated(change.displayName) + "</strong>\n<ul>\n"
                for field in change.fieldChanges {
                    html += field.isMove ? "<li class=\"moved\">Moved: " : "<li>"
                    html +=
                        Self.html(field.label) + ": " + Self.isolated(Self.value(field.old)) + " → "
                        + Self.isolated(Self.value(field.new)) + "</li>\n"
                }
                html += "</ul>\n</li>\n"
            }
            html += "</ul>\n"
        }
        return html + "</main>\n</body>\n</html>\n"
    }

    private func person(_ user: User) -> String {
        var text = "<strong>" + Self.isolated(user.displayName) + "</strong>"
        if let role = Self.role(of: user) { text += " — " + Self.isolated(role) }
        if let mail = user.mail { text += " (" + Self.isolated(mail) + ")" }
        return text
    }

    /// A directory value escaped and wrapped in `<bdi>`, so right-to-left names do not reorder the text around.
    static func isolated(_ text: String) -> String {
        "<bdi>" + html(text) + "</bdi>"
    }

    /// Escapes text for HTML content and quoted attributes; control characters and bidi overrides are shown as
    /// `\u{…}` (see `printable`), as in the text format.
    static func html(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in printable(text).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
