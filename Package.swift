// swift-tools-version:6.0
import PackageDescription

/// swift-crypto with its RSA extras: certificate sign-in in the product, assertion checks in the sandbox,
/// and the tests that sign or verify JWTs.
let crypto: [Target.Dependency] = [
    .product(name: "Crypto", package: "swift-crypto"),
    .product(name: "_CryptoExtras", package: "swift-crypto"),
]

let package = Package(
    name: "orgdir",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "orgdir", targets: ["orgdir"]),
        .executable(name: "graph-sandbox", targets: ["graph-sandbox"]),
        .library(name: "OrgDirectory", targets: ["OrgDirectory"]),
        .library(name: "GraphSandbox", targets: ["GraphSandbox"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCMarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // The allocator of the orgdir executable on Linux (see Sources/orgdir/ProcessAllocator.swift).
        .systemLibrary(name: "CMimalloc", providers: [.apt(["libmimalloc-dev"])]),
        .target(name: "OData"),
        .target(name: "CSystemShims"),
        .target(
            name: "OrgDirectory",
            dependencies: [
                "OData",
                "CCMarkGFM",
                "CSystemShims",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "GraphSandbox",
            dependencies: [
                "OData",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .executableTarget(
            name: "orgdir",
            dependencies: [
                "OrgDirectory",
                "GraphSandbox",
                .target(name: "CMimalloc", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "graph-sandbox",
            dependencies: [
                "GraphSandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers the test targets share: child processes with their output in files (see ChildProcess).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ODataTests", dependencies: ["OData"]),
        .testTarget(
            name: "OrgDirectoryTests",
            dependencies: ["OrgDirectory", "OData", "TestSupport"] + crypto
        ),
        .testTarget(
            name: "GraphSandboxTests",
            dependencies: ["GraphSandbox", "OData", "TestSupport"] + crypto
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["OrgDirectory", "GraphSandbox", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
