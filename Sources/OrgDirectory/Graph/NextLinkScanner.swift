import Foundation

/// Finds `@odata.nextLink` in a page's raw JSON without decoding the page, so the next request can start early.
///
/// Only a key (a quote not preceded by a backslash) counts; a display name that merely contains the text is
/// escaped in JSON and never matches. The result is a hint: the caller compares it with the decoded page.
enum NextLinkScanner {
    private static let key = Array(#""@odata.nextLink""#.utf8)

    static func nextLink(in body: Data) -> String? {
        body.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var index = 0
            while index + key.count <= count {
                guard bytes[index] == key[0] else {
                    index += 1
                    continue
                }
                var matches = true
                for offset in 1..<key.count where bytes[index + offset] != key[offset] {
                    matches = false
                    break
                }
                if matches, index == 0 || bytes[index - 1] != UInt8(ascii: "\\") {
                    return value(after: index + key.count, in: bytes)
                }
                index += 1
            }
            return nil
        }
    }

    /// Reads `: "…"` after the key and unescapes the string with the JSON parser.
    private static func value(after start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var index = start
        func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let open = index
        index += 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "\"") {
                let literal = Data(bytes[open...index])
                let wrapped = Data("[".utf8) + literal + Data("]".utf8)
                return (try? JSONSerialization.jsonObject(with: wrapped) as? [String])?.first
            }
            index += 1
        }
        return nil
    }
}
