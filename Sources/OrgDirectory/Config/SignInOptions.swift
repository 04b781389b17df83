import Foundation

/// What the chosen sign-in method needs besides tenant and client id: certificate and key files, the
/// assertion algorithm, the federated token file.
public struct SignInOptions: Sendable, Equatable {
    public var certificateFile: URL?
    public var privateKeyFile: URL?
    public var assertionAlgorithm: AssertionAlgorithm
    public var federatedTokenFile: URL?

    public init(
        certificateFile: URL? = nil, privateKeyFile: URL? = nil, assertionAlgorithm: AssertionAlgorithm = .ps256,
        federatedTokenFile: URL? = nil
    ) {
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
        self.assertionAlgorithm = assertionAlgorithm
        self.federatedTokenFile = federatedTokenFile
    }
}
