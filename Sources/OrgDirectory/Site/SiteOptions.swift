import Foundation

/// What the site looks like and contains, from the plist (`title`, `templates`, `hideFields`, `exports`).
public struct SiteOptions: Sendable {
    /// Shown in every page title and header.
    public var title: String
    /// A folder whose templates and assets override any subset of the built-in ones.
    public var templatesDirectory: URL?
    /// Graph property names (e.g. `mobilePhone`) removed everywhere: pages, search data and exports.
    public var hideFields: Set<String>
    /// Which exports to write.
    public var exports: Set<SiteExport>
    /// At most this many people are listed straight on `index.html`; larger directories get browse pages only.
    public var indexListLimit: Int

    public init(
        title: String = "Company directory",
        templatesDirectory: URL? = nil,
        hideFields: Set<String> = [],
        exports: Set<SiteExport> = Set(SiteExport.allCases),
        indexListLimit: Int = 2_000
    ) {
        self.title = title
        self.templatesDirectory = templatesDirectory
        self.hideFields = hideFields
        self.exports = exports
        self.indexListLimit = indexListLimit
    }

    /// Graph property names `hideFields` understands; anything else is most likely a typo.
    public static let hideableFields: Set<String> = [
        "givenName", "surname", "mail", "businessPhones", "mobilePhone", "jobTitle", "department",
        "officeLocation", "companyName", "userPrincipalName", "manager", "employeeId", "preferredLanguage",
    ]
}
