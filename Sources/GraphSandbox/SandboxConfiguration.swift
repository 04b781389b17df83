/// Settings for one sandbox instance: the tenant and its one registered app, the generated directory,
/// the listening port, token lifetime and injected faults.
public struct SandboxConfiguration: Sendable {
    /// The tenant name the token endpoint answers to (`/{tenant}/oauth2/v2.0/token`); its `.onmicrosoft.com`
    /// form, the user domain and `tenantGUID` are accepted as aliases.
    public var tenantId: String
    /// The application (client) id of the only app registered in the tenant.
    public var clientId: String
    /// That app's client secret.
    public var clientSecret: String
    /// How many directory objects the generator creates.
    public var userCount: Int
    /// Seed of the deterministic tenant generator.
    public var seed: UInt64
    /// Loopback port to listen on; 0 picks any free port.
    public var port: UInt16
    /// Seconds an access token is valid (`expires_in`).
    public var tokenLifetime: Int
    /// Failures to inject.
    public var faults: FaultPlan
    /// Domain of member UPNs and mail; derived from `tenantId` when nil (`contoso` → `contoso.com`).
    public var domain: String?
    /// A fixed tenant instead of a generated one (tests that need exact data).
    public var fixedUsers: [SandboxUser]?
    /// PEM certificates registered on the app (Certificates & secrets), for client assertions.
    public var certificates: [String] = []
    /// Federated identity credentials on the app, for federated-token assertions.
    public var federatedCredentials: [FederatedCredential] = []
    /// "Allow public client flows": device code and browser sign-in without a secret.
    public var publicClientFlows = true
    /// How the simulated person behaves during device code and browser sign-in.
    public var signInScript = DelegatedSignInScript()
    /// How much of `/users/delta` is served.
    public var deltaSupport: DeltaSupport
    /// How changed users are sent in delta rounds.
    public var deltaRecords: DeltaRecords
    /// The order of `GET /users` without `$orderby`, `$filter` or `$search`.
    public var listingOrder: ListingOrder

    public init(
        tenantId: String = "contoso",
        clientId: String = "11111111-2222-3333-4444-555555555555",
        clientSecret: String = "sandbox-secret",
        userCount: Int = 500,
        seed: UInt64 = 1,
        port: UInt16 = 0,
        tokenLifetime: Int = 3599,
        faults: FaultPlan = .none,
        domain: String? = nil,
        fixedUsers: [SandboxUser]? = nil,
        deltaSupport: DeltaSupport = .complete,
        deltaRecords: DeltaRecords = .full,
        listingOrder: ListingOrder = .id
    ) {
        self.tenantId = tenantId
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.userCount = userCount
        self.seed = seed
        self.port = port
        self.tokenLifetime = tokenLifetime
        self.faults = faults
        self.domain = domain
        self.fixedUsers = fixedUsers
        self.deltaSupport = deltaSupport
        self.deltaRecords = deltaRecords
        self.listingOrder = listingOrder
    }

    /// The user domain actually used.
    public var effectiveDomain: String {
        if let domain { return domain }
        if tenantId.contains("."), !tenantId.hasSuffix(".onmicrosoft.com") { return tenantId.lowercased() }
        if TenantIdentity.isGUID(tenantId) { return "contoso.com" }
        let label = tenantId.split(separator: ".").first.map(String.init) ?? tenantId
        return "\(label.lowercased()).com"
    }

    /// A stable GUID for the tenant, derived from its name, accepted by the token endpoint as an alias.
    public var tenantGUID: String {
        if TenantIdentity.isGUID(tenantId) { return tenantId.lowercased() }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in tenantId.lowercased().utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        var rng = SeededGenerator(seed: hash)
        return rng.guid()
    }
}
