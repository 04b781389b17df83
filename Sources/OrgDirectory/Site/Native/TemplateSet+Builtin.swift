extension TemplateSet {
    /// Whether every template in `names` is the built-in one, none replaced by the templates folder: only then
    /// may a page use its compiled renderer.
    func isBuiltin(_ names: [String]) -> Bool {
        names.allSatisfy { builtinNames.contains($0) }
    }

    /// What `sources` says of a template that comes from the binary.
    static func builtinSource(_ name: String) -> String {
        "built-in:\(name).mustache"
    }
}
