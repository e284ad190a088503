import FerryTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `make install` into a temporary `DESTDIR`, and what a user then meets: the binary runs
/// without the Swift toolchain's libraries, `man -l` renders the pages, bash completes.
///
/// `make test-install` makes the install stage (the release build, its manual pages and
/// completion scripts) before it runs these tests (`make test` skips them and builds no
/// release), so `make install` here only copies files. When the stage
/// is out of date (sources edited since), the test says so instead of starting a release
/// build of several minutes inside the test run.
@Suite(.serialized) struct InstallTests {
    @Test func installPutsTheBinaryManualPagesAndCompletionsUnderThePrefix() throws {
        // Given a fresh stage and an empty DESTDIR.
        try requireFreshStage()
        let destination = try TemporaryDirectory(prefix: "ferry-install")
        defer { destination.remove() }
        let prefix = destination.file("usr")

        // When the files are installed with PREFIX=/usr.
        let install = try make(["install", "DESTDIR=\(destination.path)", "PREFIX=/usr"])
        try #require(install.succeeded, "make install: \(install.stderr)")

        // Then the binary, one manual page per command and three completion scripts are there.
        let binary = prefix.appendingPathComponent("bin/ferry")
        #expect(access(binary.path, X_OK) == 0)
        let manual = prefix.appendingPathComponent("share/man/man1")
        let pages = Set(try FileManager.default.contentsOfDirectory(atPath: manual.path))
        // Internal commands (named with a leading '_', such as _netmon) have no page.
        let expectedPages = Set(["ferry"] + (try subcommandNames(of: binary)).filter { !$0.hasPrefix("_") }.map { "ferry-\($0)" })
            .map { "\($0).1" }
        #expect(pages == Set(expectedPages))
        #expect(pages.contains("ferry-get.1") && pages.contains("ferry-put.1"))
        #expect(!pages.contains { $0.hasPrefix("ferry-_") }, "\(pages.sorted())")
        #expect(!(try String(contentsOf: manual.appendingPathComponent("ferry.1"), encoding: .utf8)).contains("_netmon"))
        // And the guide `ferry help add` refers to is there, as in the sources.
        let guide = prefix.appendingPathComponent("share/doc/ferry/USAGE.md")
        #expect(try Data(contentsOf: guide) == Data(contentsOf: repositoryRoot.appendingPathComponent("docs/USAGE.md")))
        let bash = prefix.appendingPathComponent("share/bash-completion/completions/ferry")
        let zsh = prefix.appendingPathComponent("share/zsh/site-functions/_ferry")
        let fish = prefix.appendingPathComponent("share/fish/vendor_completions.d/ferry.fish")
        #expect(try String(contentsOf: zsh, encoding: .utf8).hasPrefix("#compdef ferry"))
        #expect(try String(contentsOf: fish, encoding: .utf8).contains("complete -c 'ferry'"))

        // And man renders every page with no complaint from groff.
        let expectedText = ["ferry.1": "ferry-get(1)", "ferry-get.1": "--checksum", "ferry-put.1": "--upload-file"]
        for page in pages.sorted() {
            let rendered = try run(
                executable: "man", arguments: ["-l", manual.appendingPathComponent(page).path],
                environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "80", "LANG": "C.UTF-8"],
                timeout: .seconds(60)
            )
            #expect(rendered.succeeded, "man -l \(page): \(rendered.stderr)")
            #expect(rendered.stderr.isEmpty, "man -l \(page): \(rendered.stderr)")
            #expect(rendered.stdout.contains(expectedText[page] ?? "NAME"), "\(page) rendered:\n\(rendered.stdout)")
        }

        // And bash knows the completion once the script is sourced, and completes with it.
        let completion = try run(
            executable: "bash",
            arguments: ["--norc", "--noprofile", "-c", """
                source "$0" && complete -p ferry && \
                COMP_WORDS=(ferry g) COMP_CWORD=1 COMP_LINE='ferry g' COMP_POINT=7 && _ferry ferry g ferry && \
                echo "first: ${COMPREPLY[*]}" && \
                COMPREPLY=() COMP_WORDS=(ferry get --chec) COMP_CWORD=2 COMP_LINE='ferry get --chec' COMP_POINT=16 && \
                _ferry ferry --chec get && echo "option: ${COMPREPLY[*]}"
                """, bash.path],
            environment: ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"],
            timeout: .seconds(60)
        )
        #expect(completion.succeeded, "\(completion.stderr)")
        #expect(completion.stdout.contains("complete -o filenames -F _ferry ferry"), "\(completion.stdout)")
        #expect(completion.stdout.contains("first: get"), "\(completion.stdout)")
        #expect(completion.stdout.contains("option: --checksum"), "\(completion.stdout)")
    }

    @Test func theInstalledBinaryNeedsNoLibraryOfTheSwiftToolchain() throws {
        // Given an installed binary and the toolchain's runtime directory.
        try requireFreshStage()
        let destination = try TemporaryDirectory(prefix: "ferry-install")
        defer { destination.remove() }
        let install = try make(["install", "DESTDIR=\(destination.path)"])
        try #require(install.succeeded, "make install: \(install.stderr)")
        let binary = destination.file("usr/local/bin/ferry")
        let runtime = try toolchainRuntimeDirectory()

        // When the dynamic loader lists what it loads for the installed binary and for the
        // debug build the other tests run (linked to the toolchain's shared runtime).
        let installed = try sharedLibraries(of: binary)
        let debug = try sharedLibraries(of: try ferryExecutableURL())

        // Then nothing of the installed one comes from the toolchain or is a Swift runtime
        // library, and every library is found; the debug binary shows that the check sees one.
        #expect(!installed.isEmpty)
        for line in installed {
            #expect(!line.contains(runtime), "\(line)")
            #expect(!isSwiftRuntime(line), "\(line)")
            #expect(!line.contains("not found"), "\(line)")
        }
        #expect(debug.contains { $0.contains("libswiftCore") && $0.contains(runtime) }, "\(debug)")

        // And it runs with no library path at all and a PATH without the toolchain.
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { state.remove() }
        let bare = ["PATH": "/usr/bin:/bin", "HOME": state.path]
        let version = try run(executable: binary.path, arguments: ["--version"], environment: bare)
        #expect(version.succeeded, "\(version.stderr)")
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).first?.isNumber == true)
        let list = try run(
            executable: binary.path, arguments: ["list", "--json", "--state-dir", state.path], environment: bare
        )
        #expect(list.succeeded, "\(list.stderr)")
        #expect(FileManager.default.fileExists(atPath: state.file("journal.sqlite").path))
    }

    @Test func theInstalledBinaryIsStrippedAndItsDebugInformationKeptApart() throws {
        // Given an installed binary.
        try requireFreshStage()
        let destination = try TemporaryDirectory(prefix: "ferry-install")
        defer { destination.remove() }
        let install = try make(["install", "DESTDIR=\(destination.path)"])
        try #require(install.succeeded, "make install: \(install.stderr)")
        let binary = destination.file("usr/local/bin/ferry")

        // When its section headers are listed.
        let sections = try run(executable: "readelf", arguments: ["-S", "-W", binary.path], environment: ["PATH": "/usr/bin:/bin"])
        try #require(sections.succeeded, "\(sections.stderr)")

        // Then it has no symbol table and no DWARF, only a link to the kept debug file, which exists.
        #expect(!sections.stdout.contains(".symtab"), "\(sections.stdout)")
        #expect(!sections.stdout.contains(".debug_info"), "\(sections.stdout)")
        #expect(sections.stdout.contains(".gnu_debuglink"), "\(sections.stdout)")
        let debugFile = repositoryRoot.appendingPathComponent(".build/ferry.debug")
        let debugSections = try run(executable: "readelf", arguments: ["-S", "-W", debugFile.path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(debugSections.stdout.contains(".debug_info"), "\(debugSections.stderr)")
        // And it still runs.
        let version = try run(executable: binary.path, arguments: ["--version"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(version.succeeded, "\(version.stderr)")
    }

    @Test func uninstallRemovesWhatInstallPutThereAndNothingElse() throws {
        // Given an installation next to a file of another package.
        try requireFreshStage()
        let destination = try TemporaryDirectory(prefix: "ferry-install")
        defer { destination.remove() }
        let arguments = ["DESTDIR=\(destination.path)", "PREFIX=/opt/ferry"]
        let install = try make(["install"] + arguments)
        try #require(install.succeeded, "make install: \(install.stderr)")
        let foreign = destination.file("opt/ferry/share/man/man1/ferryman.1")
        try Data("not Ferry's\n".utf8).write(to: foreign)
        #expect(try regularFiles(under: destination.url).count > 5)

        // When it is uninstalled with the same PREFIX and DESTDIR.
        let uninstall = try make(["uninstall"] + arguments)

        // Then only the other package's file is left.
        #expect(uninstall.succeeded, "make uninstall: \(uninstall.stderr)")
        #expect(try regularFiles(under: destination.url) == ["opt/ferry/share/man/man1/ferryman.1"])
    }
}

// MARK: - Helpers

/// `repositoryRoot` is the directory holding the Makefile (three levels above this file).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `make(_:timeout:)` runs make in the repository, without the settings of a make that
/// may be running this test (`make test`).
private func make(_ arguments: [String], timeout: Duration = .seconds(120)) throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    for name in ["MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "DESTDIR", "PREFIX"] {
        environment[name] = nil
    }
    return try run(
        executable: "make", arguments: ["--no-print-directory", "-C", repositoryRoot.path] + arguments,
        environment: environment, timeout: timeout
    )
}

/// `requireFreshStage()` fails the test, saying what to run, when the install stage is
/// missing or older than a source (`make -q` answers without building anything).
private func requireFreshStage() throws {
    let question = try make(["-q", ".build/install.stamp"])
    try #require(
        question.exitStatus == 0,
        "the install stage is missing or out of date: `make test-install` (or `make stage`) makes it"
    )
}

/// `subcommandNames(of:)` are the names of the binary's commands below the root, from the
/// argument parser's own description of them (`--experimental-dump-help`), nested ones as
/// `parent-child`.
private func subcommandNames(of binary: URL) throws -> [String] {
    let dump = try run(executable: binary.path, arguments: ["--experimental-dump-help"])
    try #require(dump.succeeded, "\(dump.stderr)")
    struct Command: Decodable {
        let commandName: String
        let subcommands: [Command]?
    }
    struct ToolInfo: Decodable { let command: Command }
    let root = try JSONDecoder().decode(ToolInfo.self, from: dump.standardOutput).command
    func names(_ command: Command, prefix: String) -> [String] {
        (command.subcommands ?? []).flatMap { child -> [String] in
            let name = prefix.isEmpty ? child.commandName : "\(prefix)-\(child.commandName)"
            return [name] + names(child, prefix: name)
        }
    }
    return names(root, prefix: "")
}

/// `sharedLibraries(of:)` are the lines of `ldd` for the binary, one per library.
private func sharedLibraries(of binary: URL) throws -> [String] {
    let result = try run(executable: "ldd", arguments: [binary.path], environment: ["PATH": "/usr/bin:/bin"])
    try #require(result.succeeded, "ldd \(binary.path): \(result.stderr)")
    return result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
}

/// `isSwiftRuntime(_:)` tells whether an `ldd` line names a library of the Swift runtime
/// or of the toolchain's Foundation and Dispatch.
private func isSwiftRuntime(_ line: String) -> Bool {
    let name = line.split(separator: " ").first.map(String.init) ?? line
    return ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libTesting"]
        .contains { name.hasPrefix($0) }
}

/// `toolchainRuntimeDirectory()` is where the toolchain of the `swift` on `PATH` keeps its
/// shared runtime: `lib/swift/` beside its `bin/`.
private func toolchainRuntimeDirectory() throws -> String {
    let which = try run(executable: "sh", arguments: ["-c", "readlink -f \"$(command -v swift)\""])
    let swift = which.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    try #require(which.succeeded && !swift.isEmpty, "no swift on PATH")
    return URL(fileURLWithPath: swift).deletingLastPathComponent().deletingLastPathComponent().path + "/lib/swift/"
}

/// `regularFiles(under:)` are the paths of the regular files below `directory`, relative to it.
private func regularFiles(under directory: URL) throws -> [String] {
    let base = directory.resolvingSymlinksInPath().path
    guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
    var files: [String] = []
    while let relative = walker.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory),
           !isDirectory.boolValue {
            files.append(relative)
        }
    }
    return files.sorted()
}
