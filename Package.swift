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
            ],
            // A release orgdir on Linux carries Swift's runtime and Foundation inside itself, as
            // `--static-swift-stdlib` would. Linked against their shared libraries, every start spent some 6 ms
            // loading and relocating them (`orgdir --version`: 14 -> 8 ms), and every call into the runtime
            // (each retain and release) went through a lookup table. A nightly of 100,000 people is about 0.45 s,
            // so that was a twentieth of it (Benchmarks/README.md, "Swift's runtime linked into the binary").
            // The static FoundationNetworking still needs libcurl's shared library: Debian's libcurl4-openssl-dev
            // (the Makefile's BUILD_PACKAGES). Debug builds, which the tests use, stay dynamic: they link faster.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
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
