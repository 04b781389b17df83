import Foundation

/// Rows a run makes for everyone, in display order, that no published file holds one after the other: the list
/// pages' person rows (`ListRows`, copied into the browse and department pages). A run keeps them in the state folder
/// (`KeptRowFiles`) so the next copies the rows of people whose row key is unchanged (`RowMatch`), as the exports
/// copy theirs from the published exports.
///
/// Making them was about a sixth of a 100,000-person nightly run's work, for the one percent that changed. The search
/// records were kept this way too (`search-records.bin`); a run now takes them from the published search base instead
/// (`SearchBaseRecords`), so that file is only removed (`KeptRowFiles.retiredFiles`).
enum KeptRowKind: String, CaseIterable, Sendable {
    case listRows = "list-rows"

    /// How a warning names them.
    var label: String {
        switch self {
        case .listRows: "list page rows"
        }
    }
}

/// The state folder's files of kept rows, one per `KeptRowKind` (`<kind>.bin`): a header line naming the format,
/// the stamp of the table that describes them (`RowMatch.stamp`), then the rows one after the other.
///
/// Written whole through a temporary file and a rename, while the render runs (holding them until the table is
/// saved would add them to the run's peak). The table saved at the end names each file's stamp; a file written by a
/// run whose table was never saved carries another stamp (or the same one, only when it holds the very same rows)
/// and is not read, so rows are never copied from a file the table does not describe. Only a time saver: a missing,
/// damaged or foreign file means the rows are made.
public struct KeptRowFiles: Sendable {
    let folder: URL

    public init(stateDirectory: URL) {
        folder = stateDirectory
    }

    static let magic = Array("orgdir-kept-rows/1\n".utf8)
    /// The header's length: the magic line and the stamp.
    static let headerSize = magic.count + 16

    func url(_ kind: KeptRowKind) -> URL {
        folder.appendingPathComponent(kind.rawValue + ".bin")
    }

    /// A copier of the run before's `kind` rows (when `previous`, the run before's table, describes a file that is
    /// there with its stamp and size) that notes where this run's rows go; `count` rows are expected.
    func copier(_ kind: KeptRowKind, previous: ExportRows?, count: Int) -> RowCopier {
        guard let previous, let entry = previous.kept[kind], let file = MappedFile(path: url(kind).path),
            Self.header(of: file.bytes) == previous.stamp
        else { return RowCopier(keeping: true, count: count, previous: nil, published: nil) }
        return RowCopier(
            keeping: true, count: count, previous: entry, published: file, base: Self.headerSize)
    }

    /// Replaces the file of `kind` with the rows `rows` writes under `stamp`: the entry for the table when the file
    /// was written whole, else the failure (and nothing is left where the file goes, so the next run can write it).
    func keep(
        _ kind: KeptRowKind, spans: [ExportRows.Span], stamp: RenderFingerprint, rows: FileReplacement.Contents
    ) -> Result<ExportRows.File, FileReplacement.Failure> {
        var header = Self.magic
        BinaryRecord.append(stamp, to: &header)
        var size = 0
        do {
            try FileReplacement.replace(url(kind), mode: 0o644, sync: false, recycling: true) { write in
                if let failed = header.withUnsafeBytes(write) { return (0, failed) }
                // Both closures are the caller's: handed one to the other, neither outlives this call.
                let written = withoutActuallyEscaping(write) { rows($0) }
                size = written.size
                return (header.count + written.size, written.failed)
            }
        } catch {
            FileReplacement.remove(url(kind))
            return .failure(error)
        }
        return .success(ExportRows.File(size: UInt64(size), spans: spans))
    }

    /// Removes the file of every kind but `kinds` (those the table being saved describes, `ExportRowStore.save`),
    /// and the files of kinds no longer kept.
    func discard(allBut kinds: Set<KeptRowKind>) {
        for kind in KeptRowKind.allCases where !kinds.contains(kind) {
            FileReplacement.remove(url(kind))
        }
        for name in Self.retiredFiles { FileReplacement.remove(folder.appendingPathComponent(name)) }
    }

    /// Files of kinds earlier versions kept: the search records, which the published search base now holds
    /// (`SearchBaseRecords`). Removed rather than left unread in the state folder.
    static let retiredFiles = ["search-records.bin"]

    /// The stamp in a kept file's header, nil when it has none.
    static func header(of bytes: UnsafeRawBufferPointer) -> RenderFingerprint? {
        var reader = BinaryReader(bytes: bytes)
        guard reader.take(magic.count).elementsEqual(magic) else { return nil }
        return reader.digest()
    }
}
