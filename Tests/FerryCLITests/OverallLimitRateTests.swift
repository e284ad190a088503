import FerryTestSupport
import Foundation
import Testing

/// How smooth and how fair Ferry's own limits are, measured on `ferry get` from nginx on
/// 127.0.0.1 (unthrottled) by sampling the `.part` files ten times a second.
@Suite(.serialized) struct OverallLimitRateTests {
    /// `Sampler` reads the sizes of files every 100 ms.
    final class Sampler {
        private(set) var samples: [(time: Double, sizes: [Int])] = []
        let files: [URL]

        init(files: [URL]) {
            self.files = files
        }

        /// `record(for:)` samples for `seconds`.
        func record(for seconds: Double) {
            let start = Date()
            while Date().timeIntervalSince(start) < seconds {
                let before = Date().timeIntervalSince1970
                let sizes = files.map { url in
                    // The .part until the file takes its final name.
                    let part = url.appendingPathExtension("part")
                    return Self.size(part) ?? Self.size(url) ?? 0
                }
                // Timed halfway through the reads, which a busy machine may spread out.
                samples.append(((before + Date().timeIntervalSince1970) / 2, sizes))
                usleep(100_000)
            }
        }

        private static func size(_ url: URL) -> Int? {
            ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue
        }

        /// The bytes each file grew by in each whole second from `from` (seconds after the
        /// first sample) for `count` seconds.
        func windows(from: Double, count: Int) -> [[Int]] {
            guard let first = samples.first?.time else { return [] }
            // Between two samples the sizes are interpolated: a sample taken late (the sampler
            // not scheduled for a while) does not move the bytes of one second into the next.
            func sizes(at offset: Double) -> [Int] {
                let time = first + offset
                guard let after = samples.firstIndex(where: { $0.time >= time }) else {
                    return samples.last?.sizes ?? Array(repeating: 0, count: files.count)
                }
                guard after > 0 else { return samples[after].sizes }
                let (t0, s0) = samples[after - 1]
                let (t1, s1) = samples[after]
                let weight = t1 > t0 ? (time - t0) / (t1 - t0) : 1
                return zip(s0, s1).map { a, b in a + Int((Double(b - a) * weight).rounded()) }
            }
            return (0..<count).map { second in
                let start = sizes(at: from + Double(second))
                let end = sizes(at: from + Double(second + 1))
                return zip(start, end).map { $1 - $0 }
            }
        }
    }

    @Test func twoMiBPerSecondSharedBySixDownloadsIsSmoothAndFair() throws {
        // Given six 32 MiB files and ferry get with --overall-limit 2M.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        for index in 0..<6 { try Pattern.writeFile(at: www.file("f\(index).bin"), count: 32 << 20, seed: index) }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let get = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: [
            "get", "-q", "--overall-limit", "2M", "--max-concurrent", "6", "--max-per-host", "6", "--state-dir", state.path, "-d", out.path,
        ] + (0..<6).map { nginx.url("/f\($0).bin").absoluteString })
        defer { get.kill() }

        // When the six run for 22 seconds.
        let sampler = Sampler(files: (0..<6).map { out.file("f\($0).bin") })
        sampler.record(for: 23)
        #expect(get.isRunning)

        // Then over the 20 seconds after the first two, together they received at most 2 MiB/s
        // (5% over for the clock's grain; at least half of it however busy the machine), each
        // as much as the others (within 25% of their mean), and no file went a second without
        // bytes. The ceiling and the fairness hold under any scheduling; the floor is loose.
        let windows = sampler.windows(from: 2, count: 20)
        let perFile = (0..<6).map { file in windows.reduce(0) { $0 + $1[file] } }
        let total = Double(perFile.reduce(0, +)) / 20
        #expect(total <= 1.05 * Double(2 << 20) && total >= 0.5 * Double(2 << 20), "\(total) B/s; \(perFile)")
        let mean = total / 6
        for (file, bytes) in perFile.enumerated() {
            #expect(abs(Double(bytes) / 20 - mean) <= 0.25 * mean, "file \(file): \(Double(bytes) / 20) B/s; \(perFile)")
        }
        let empty = windows.enumerated().flatMap { second, sizes in
            sizes.enumerated().filter { $0.element == 0 }.map { "file \($0.offset) in second \(second + 2)" }
        }
        #expect(empty.isEmpty, "\(empty)")
    }

    @Test func aCapOf300KiBPerSecondNeverStallsNorRetries() throws {
        // Given a 3 MiB file, and a stall detector of 3 seconds (a burst with a silent gap
        // of 3 seconds would count as a stall and, with no retries, fail the download).
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 3 << 20, seed: 3)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }

        for limit in [["--limit-rate", "300K"], ["--overall-limit", "300K"]] {
            try? FileManager.default.removeItem(at: out.file("f.bin"))
            let get = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: [
                "get", "-q", "--retries", "0", "--low-speed-time", "3", "--overwrite", "--state-dir", state.path, "-d", out.path,
                nginx.url("/f.bin").absoluteString,
            ] + limit)
            defer { get.kill() }
            let sampler = Sampler(files: [out.file("f.bin")])
            sampler.record(for: 9)
            let result = get.wait(timeout: .seconds(30))

            // Then every second after the first received bytes and never more than 25% over the
            // cap (no burst and gap: less in a second is what a busy machine's scheduling can
            // cause, more only the limiter), and it finished byte-exact with one request.
            #expect(result?.termination == .exited(0), "\(limit): \(result?.stderr ?? "still running")")
            let windows = sampler.windows(from: 1, count: 7).map { $0[0] }
            #expect(windows.allSatisfy { $0 > 0 && Double($0) < 1.25 * Double(300 << 10) }, "\(limit): \(windows)")
            #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: 3 << 20, seed: 3))
        }
        let requests = nginx.accessLog().split(separator: "\n")
        #expect(requests.count == 2, "\(nginx.accessLog())")
    }
}
