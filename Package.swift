// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Ferry",
    products: [
        .executable(name: "ferry", targets: ["ferry"]),
        .library(name: "FerryKit", targets: ["FerryKit"]),
        .library(name: "FerryQueue", targets: ["FerryQueue"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        // Without the default traits: swift-configuration and full Foundation are not built for it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // For the tests only: the IETF resumable-upload server (NIOResumableUpload).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        // C shims: typed wrappers for what Swift cannot import, nothing else.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CNCurses", linkerSettings: [.linkedLibrary("ncursesw"), .linkedLibrary("tinfo")]),
        .target(name: "CFerrySystem"),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        // Digests from OpenSSL's libcrypto, which libcurl loads already.
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),

        // The AFNetworking analogue on libcurl. Only Transport/ imports CCurl.
        .target(
            name: "FerryKit",
            dependencies: ["CCurl", "CFerrySystem", "CCrypto"]
        ),
        // The persistent queue (journal, scheduler, batch input).
        .target(
            name: "FerryQueue",
            dependencies: [
                "FerryKit", "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The terminal front end. Only its ncurses backend imports CNCurses.
        .target(name: "FerryTUI", dependencies: ["FerryKit", "FerryQueue", "CNCurses"]),
        // The daemon's endpoint: aria2's JSON-RPC over HTTP (Hummingbird), above the queue.
        .target(
            name: "FerryRPC",
            dependencies: [
                "FerryKit", "FerryQueue",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The command line.
        .executableTarget(
            name: "ferry",
            dependencies: [
                "FerryKit", "FerryQueue", "FerryTUI", "FerryRPC",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Test support: launches nginx and the fault server on 127.0.0.1, temp dirs, hashing.
        .target(
            name: "FerryTestSupport",
            dependencies: ["FerryKit"],
            path: "Tests/Support"
        ),
        // A server of the IETF resumable-upload draft (SwiftNIO's NIOResumableUpload) for the tests.
        .executableTarget(
            name: "resumable-upload-server",
            dependencies: [
                .product(name: "NIOResumableUpload", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/Servers/ResumableUploadServer"
        ),
        .testTarget(name: "FerryKitTests", dependencies: ["FerryKit", "FerryTestSupport"]),
        .testTarget(name: "FerryCLITests", dependencies: ["ferry", "FerryQueue", "FerryTUI", "FerryTestSupport"]),
        .testTarget(name: "FerryQueueTests", dependencies: ["FerryQueue", "FerryTestSupport"]),
        .testTarget(name: "FerryRPCTests", dependencies: ["FerryRPC", "FerryQueue"]),
        .testTarget(name: "FerryTUITests", dependencies: ["FerryTUI", "FerryQueue", "FerryTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
