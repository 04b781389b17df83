extension PageFrame {
    /// The `layout` context for an overridden layout, around the rendered page body `content`.
    func mustacheContext(content: String) -> [String: Any] {
        let exports = exports.map { export -> [String: Any] in
            ["file": export.fileName, "label": export.rawValue.uppercased()]
        }
        return [
            "title": siteTitle, "pageTitle": pageTitle, "root": root, "scripts": scripts.map { ["src": $0] },
            "pageKind": kind, "isIndex": isIndex, "content": content, "generatedAt": stamp.display,
            "generatedAtISO": stamp.iso, "hasExports": !exports.isEmpty, "exports": exports,
        ]
    }
}
