/// Which tenant identifiers (name, domain, GUID) the sandbox's token endpoint answers to.
struct TenantIdentity: Sendable {
    let aliases: Set<String>

    init(configuration: SandboxConfiguration) {
        let name = configuration.tenantId.lowercased()
        var aliases: Set<String> = [name, configuration.tenantGUID, configuration.effectiveDomain]
        let label = name.split(separator: ".").first.map(String.init) ?? name
        if !TenantIdentity.isGUID(name) {
            aliases.insert("\(label).onmicrosoft.com")
        }
        self.aliases = aliases
    }

    /// Case-insensitive match against the tenant's name, domains and GUID.
    func matches(_ tenant: String) -> Bool {
        aliases.contains(tenant.lowercased())
    }

    /// True for the canonical 8-4-4-4-12 hex form.
    static func isGUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
