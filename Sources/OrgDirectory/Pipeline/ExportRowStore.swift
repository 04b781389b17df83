import Foundation

/// Where a run keeps the table of everyone's export rows for the next one (`ExportRows`): `export-rows.bin` in the
/// state folder.
///
/// Only a time saver: a file that is missing or damaged is ignored, one that cannot be written is removed, and
/// the table is forgotten before every publish, so it never describes exports other than the published ones
/// (the next run would then make every row, as a first build does).
public struct ExportRowStore: Sendable {
    public let file: URL

    public init(stateDirectory: URL) {
        file = stateDirectory.appendingPathComponent("export-rows.bin")
    }

    /// The stored table, else nil.
    func load() -> ExportRows? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return ExportRows.decode(Array(data))
    }

    /// Replaces the stored table (a temporary file renamed over it); on failure, removes it and rethrows.
    func save(_ rows: ExportRows) throws {
        do {
            try Data(rows.encode()).write(to: file, options: .atomic)
        } catch {
            clear()
            throw error
        }
    }

    /// Forgets the stored table.
    func clear() {
        try? FileManager.default.removeItem(at: file)
    }
}
