// swift-tools-version:6.0
import PackageDescription

// Fuzz targets for Ferry's parsers (libFuzzer). A package of its own so that the main
// package's builds never compile it. Built by `make fuzz` with
// `-Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing` (see the Makefile);
// each executable's `main` runs libFuzzer's driver on its `LLVMFuzzerTestOneInput`.
let targets = [
    "FuzzContentDisposition",
    "FuzzContentRange",
    "FuzzResponseHead",
    "FuzzBatchInput",
    "FuzzFormFieldSpec",
    "FuzzQueryString",
    "FuzzJSON",
    "FuzzMultipartBody",
    "FuzzJournal",
    "FuzzMetalink",
]

let package = Package(
    name: "FerryFuzz",
    dependencies: [
        .package(name: "Ferry", path: ".."),
    ],
    targets: [
        // Declares libFuzzer's driver (LLVMFuzzerRunDriver) to Swift.
        .target(name: "CFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzer"]),
    ] + targets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "FuzzSupport",
                .product(name: "FerryKit", package: "Ferry"),
                .product(name: "FerryQueue", package: "Ferry"),
            ],
            // `@main` in a file not named main.swift.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    },
    swiftLanguageModes: [.v6]
)
