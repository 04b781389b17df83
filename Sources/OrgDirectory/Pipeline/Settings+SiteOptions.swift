import Foundation

extension Settings {
    /// The site options these settings ask for: what `orgdir build` renders with and `orgdir config check`
    /// validates (templates parsed, hidden fields known) without any request.
    public var siteOptions: SiteOptions {
        var options = SiteOptions()
        options.title = title
        options.templatesDirectory = templatesDirectory
        options.hideFields = Set(hideFields)
        options.exports = Set(exports.compactMap(SiteExport.init(rawValue:)))
        return options
    }
}
