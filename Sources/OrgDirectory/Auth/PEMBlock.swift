import Foundation

/// One `-----BEGIN LABEL-----` … `-----END LABEL-----` section of a PEM file, kept as text and as DER.
///
/// A certificate file may hold the certificate, its key and a chain together, so orgdir looks for blocks
/// by label rather than assuming one block per file.
struct PEMBlock: Sendable {
    var label: String
    /// The whole block, markers included, as a crypto library wants it.
    var text: String
    /// The base64 body decoded; nil when the body is not base64 (an encrypted legacy key has headers).
    var der: Data?
    /// Legacy `Proc-Type: 4,ENCRYPTED` headers mark an OpenSSL-encrypted PKCS#1 key.
    var hasEncryptionHeaders: Bool

    /// Every block in `text`, in order.
    static func blocks(in text: String) -> [PEMBlock] {
        var result: [PEMBlock] = []
        var label: String?
        var lines: [String] = []
        var body: [String] = []
        var headers = false
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if label == nil, line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst("-----BEGIN ".count).dropLast(5))
                lines = [line]
                body = []
                headers = false
            } else if let current = label {
                lines.append(line)
                if line == "-----END \(current)-----" {
                    let der = Data(base64Encoded: body.joined())
                    result.append(
                        PEMBlock(
                            label: current, text: lines.joined(separator: "\n") + "\n", der: der,
                            hasEncryptionHeaders: headers))
                    label = nil
                } else if line.contains(":") {
                    headers = headers || line.uppercased().contains("ENCRYPTED")
                } else if !line.isEmpty {
                    body.append(line)
                }
            }
        }
        return result
    }
}
