import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

extension PutCommand {
    /// `resumableMode` is the protocol choice of `--resumable[=auto|ietf|tus]`, `nil` without
    /// it or with `--no-resumable`.
    var resumableMode: ResumableUploadOptions.Mode? {
        noResumable ? nil : resumable
    }

    /// `resumeFiles()` are the files whose identities guard the upload's resume: the raw
    /// body's file, or the form's files (`-F name=@PATH` and `name=<PATH`), as absolute paths.
    /// A body that cannot resume is a usage error, said before anything is sent.
    func resumeFiles() throws(FerryError) -> [String] {
        func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
        if let uploadFile {
            var info = stat()
            if uploadFile == "-" || (stat(uploadFile, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO) {
                throw .input(.invalidOption("--resumable: standard input and named pipes cannot resume; give -T FILE"))
            }
            return [absolute(uploadFile)]
        }
        guard !formFields.isEmpty else {
            throw .input(.invalidOption("--resumable needs a body of files: -T FILE, or -F fields"))
        }
        var files: [String] = []
        for argument in formFields {
            switch try FormFieldSpec.parse(argument).content {
            case .file(let path), .fileContents(let path): files.append(absolute(path))
            case .text: break
            }
        }
        return files
    }

    /// `resumeKey(files:)` names the upload in the journal: the method, the URL, the body's
    /// arguments and its files. The same command names the same upload.
    func resumeKey(files: [String]) -> String {
        let effectiveMethod = method ?? (uploadFile != nil ? "PUT" : "POST")
        let body = (uploadFile != nil ? ["-T"] : ["-F"] + formFields) + files
        return JournalUploadResumeStore.putKey(method: effectiveMethod, url: url, body: body)
    }

    /// `runResumable(_:files:key:mode:session:reporter:output:)` sends the upload with
    /// ``ResumableUpload``, its resume data in the state directory's journal under a key made
    /// of the method, the URL and the body (``resumeKey(files:)``): the same command run again resumes it.
    func runResumable(_ request: Request, files absolute: [String], key: String, mode: ResumableUploadOptions.Mode, session: SessionManager,
                      reporter: Reporter, output: ReplyOutput) async throws -> Result<TransferResult, FerryError> {
        let journal = try QueueAccess.openJournal(state)
        defer { try? journal.close() }
        let stateDirectory = try QueueAccess.directory(state)
        let claim: UploadClaim
        switch UploadClaim.take(key: key, in: stateDirectory) {
        case .taken(let taken):
            claim = taken
        case .held:
            Console.error("another ferry put is sending this same upload now: wait for it, or stop it first")
            throw ExitStatus.usage
        case .unavailable(let why):
            Console.error("cannot keep the upload's resume data: \(stateDirectory.putLockPath): \(why)")
            throw ExitStatus.localFile
        }
        defer { claim.release() }
        let options = ResumableUploadOptions(mode: mode, interopVersion: interopVersion, maximumStalledAttempts: max(1, retries + 1),
                                             keptReplyBytes: output.keptLimit)
        let store = JournalUploadResumeStore(journal: journal, key: key)
        let job = TransferJob(label: URLMasking.mask(request.url)) { session in
            session.resumableUploadTask(with: request, files: absolute, options: options, store: store, sink: output) { text in
                reporter.clearLine()
                Console.error("note: \(text)")
            }
        }
        return await TransferRunner(session: session, concurrency: 1, reporter: reporter).run([job])[0]
    }
}

/// `UploadClaim` makes sure one `ferry put` at a time sends one upload: a write lock on one
/// byte of `put.lock` in the state directory, the byte chosen by the upload's key (so that
/// no lock file is left per upload). The kernel releases it when the process ends, however.
struct UploadClaim {
    private let descriptor: Int32

    /// `Outcome` is what asking for a claim gave.
    enum Outcome {
        case taken(UploadClaim)
        /// Another process holds it.
        case held
        /// The lock file cannot be opened (the reason).
        case unavailable(String)
    }

    /// `take(key:in:)` asks for the claim on `key`.
    static func take(key: String, in directory: StateDirectory) -> Outcome {
        let fd = open(directory.putLockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .unavailable(String(cString: strerror(errno))) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(key.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 } & 0x3FFF_FFFF)
        lock.l_len = 1
        guard fcntl(fd, F_SETLK, &lock) == 0 else {
            close(fd)
            return .held
        }
        return .taken(UploadClaim(descriptor: fd))
    }

    /// `release()` gives the claim back.
    func release() {
        close(descriptor)
    }
}

extension ResumableUploadOptions.Mode: ExpressibleByArgument {}

extension PutCommand {
    /// `givingResumableItsDefault(_:)` is `arguments` with a bare `--resumable` (before any
    /// `--`) read as `--resumable=auto`: the option's value may be left out, as curl users
    /// expect of a switch, which the argument parser cannot say by itself.
    static func givingResumableItsDefault(_ arguments: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(arguments.count)
        var ended = false
        for argument in arguments {
            if argument == "--" { ended = true }
            result.append(!ended && argument == "--resumable" ? "--resumable=auto" : argument)
        }
        return result
    }
}
