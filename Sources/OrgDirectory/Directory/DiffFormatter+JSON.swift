import Foundation

/// The JSON format: the `DiffReport` itself, for scripts and monitoring.
extension DiffFormatter {
    /// Sorted keys and ISO-8601 dates, so the same diff is always the same text; `JSONDecoder` (with
    /// `.iso8601` dates) reads it back into an equal `DiffReport`.
    func renderJSON(_ report: DiffReport) throws(SnapshotError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        } catch {
            throw .encodingFailed(reason: String(describing: error))
        }
    }
}
