/// The digest of a whole template set, part of every person's render fingerprint.
extension TemplateSet {
    /// Every template's text and every asset's bytes, in name order: a `--templates` folder that overrides one
    /// partial or one stylesheet changes it, so a nightly run after such a change renders everyone again.
    static func fingerprint(texts: [String: String], assets: [String: [UInt8]]) -> RenderFingerprint {
        var input = FingerprintInput()
        input.add(texts.count)
        for (name, text) in texts.sorted(by: { $0.key < $1.key }) {
            input.add(name)
            input.add(text)
        }
        input.add(assets.count)
        for (path, bytes) in assets.sorted(by: { $0.key < $1.key }) {
            input.add(path)
            input.add(bytes: bytes)
        }
        return input.fingerprint
    }
}
