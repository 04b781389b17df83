// swift-tools-version:6.0
import PackageDescription

/// swift-crypto with its RSA extras: certificate sign-in in the product, assertion checks in the sandbox,
/// and the tests that sign or verify JWTs.
let crypto: [Target.Dependency] = [
    .product(name: "Crypto", package: "swift-crypto"),
    .product(name: "_CryptoExtras", package: "swift-crypto"),
]

/// A release orgdir on Linux carries Swift's runtime and Foundation inside itself, as `--static-swift-stdlib` would:
/// `-static-stdlib` when compiling (so the objects name static Foundation's own libraries to link) and when linking.
/// Linked against their shared libraries, every start loaded and relocated some twenty of them (`orgdir --version`
/// 16.7 -> 10.9 ms, `Benchmarks/startup.sh OLD NEW 20`) and every call into the runtime, each retain and release,
/// went through the PLT: a 100,000-person nightly 0.535 -> 0.485 s (`Benchmarks/ab-nightly.sh OLD NEW 10`), a full
/// build 3.835 -> 3.630 s (`Benchmarks/ab.sh OLD NEW 4 100000`). Static FoundationNetworking still links libcurl's
/// shared library by name: Debian's libcurl4-openssl-dev (the Makefile's BUILD_PACKAGES). Debug builds, which the
/// tests use, stay dynamic: they link faster.
let staticRuntime = (
    swift: [SwiftSetting.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
    linker: [LinkerSetting.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
)

let package = Package(
    name: "orgdir",
    // macOS 15: the Synchronization module's `Mutex` and `Atomic`, which the run's shared state uses, exist from
    // macOS 15 on; a lower deployment target fails to compile there.
    platforms: [.macOS(.v15)],
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
            ] + crypto
        ),
        .target(
            name: "GraphSandbox",
            dependencies: [
                "OData",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
            ] + crypto
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
            swiftSettings: staticRuntime.swift,
            linkerSettings: staticRuntime.linker
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
            dependencies: ["OrgDirectory", "GraphSandbox", "TestSupport"],
            // The second Graph the tests start with python3 (IndependentGraphEndToEndTests), read from its source path.
            exclude: ["IndependentGraph"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
