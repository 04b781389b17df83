/// A naming and office culture the tenant generator draws people from: native-script names with a
/// romanized alias, how display names are ordered, phone number formats and office locations.
struct Culture: Sendable {
    /// A name in its own script and the Latin spelling used for mail aliases (nil: fold the native form).
    struct Name: Sendable {
        let native: String
        let latin: String?

        /// The ASCII alias fragment for UPNs and mail.
        var alias: String { ASCIIFolding.alias(latin ?? native) }
    }

    /// Where a person sits: an office of the company in this culture's country.
    struct Office: Sendable {
        let location: String
        let city: String
        let state: String?
        let country: String
        let usageLocation: String
        let postalCode: String
        let street: String
        let company: String
    }

    /// How the display name is assembled from the parts.
    enum NameOrder: Sendable {
        /// "Jürgen Müller".
        case givenFirst
        /// "佐藤 花子" (with the separator between family and given name, possibly empty).
        case surnameFirst(separator: String)
    }

    let language: String
    let givenNames: [Name]
    let surnames: [Name]
    let order: NameOrder
    let offices: [Office]
    /// Patterns with `#` for a random digit.
    let phoneFormats: [String]
    let mobileFormats: [String]
    /// Relative frequency in a generated tenant.
    let weight: Int

    /// Builds names from plain strings ("Jürgen") or "native|latin" pairs ("Дмитрий|Dmitry").
    static func names(_ list: [String]) -> [Name] {
        list.map { entry in
            let parts = entry.split(separator: "|", maxSplits: 1).map(String.init)
            return Name(native: parts[0], latin: parts.count > 1 ? parts[1] : nil)
        }
    }
}
