/// Anything a filter can be evaluated on: a Graph user as JSON in the sandbox, a `User` in the product.
///
/// Paths are asked for whole: `manager/displayName` arrives as one name with the `/` in it. Collections of
/// objects (such as `assignedLicenses`) have no object value, so a lambda over them reads each sub-property
/// as an array aligned by index: `assignedLicenses/skuId` should return the skuIds in license order, and
/// `identities/issuer` and `identities/issuerAssignedId` must use the same order so that one element's
/// properties stay together.
public protocol ODataRecord {
    /// The value of a property by its Graph name (case-insensitive match is the implementer's job);
    /// `.null` when absent.
    func value(forProperty name: String) -> ODataValue
}
