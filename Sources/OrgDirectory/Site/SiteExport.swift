/// A downloadable export of the whole directory, each switchable in the plist.
public enum SiteExport: String, Sendable, CaseIterable, Codable, Hashable {
    /// `people.csv`: RFC 4180 with a UTF-8 byte order mark, formula cells neutralized.
    case csv
    /// `people.json`: the visible fields of everyone, keys sorted.
    case json
    /// `people.vcf`: one vCard 4.0 per person.
    case vcf

    /// The file name at the root of the site.
    public var fileName: String { "people.\(rawValue)" }
}
