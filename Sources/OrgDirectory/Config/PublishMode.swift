/// How a run that builds on a published site publishes it (the `publish` key). A first build always stages a whole
/// site and renames it into place.
public enum PublishMode: String, Sendable, CaseIterable {
    /// Only the files that differ from the published site are staged, then moved into it one rename each under a
    /// journal that undoes them on any failure (`SitePublisher.publishChanges`): a nightly costs what changed.
    case changedFiles
    /// A whole new site is staged and swapped in for the old one, so readers never see old and new pages together;
    /// with `keepSpareSite` the replaced site is kept and updated by the next run, a second copy of the site on disk.
    case wholeSite
}
