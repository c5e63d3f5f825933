import Foundation
import Pixpipe
import PixpipeLocking

/// `pixpipe verify DIR`: checks every stored file of a `pixpipe fetch` folder against its manifest.
struct VerifyCommand: Command {
    let name = "verify"
    let summary = "Check that every file a fetch stored in a folder is there with its recorded size and SHA-256."
    let usage = "pixpipe verify [OPTIONS] DIR"
    let details = """
        Reads DIR/manifest.jsonl (the latest line of each URL) and checks each file it records as stored
        (status ok or unchanged, or a refresh's failed or gone line that kept the file): present, a regular
        file, of the recorded size and SHA-256. Names are opened inside DIR only, as one plain name, without
        following a symbolic link. Each problem is printed as one line: missing, wrong-size, wrong-hash,
        unsafe-name (a name with '/' or '..', or a symbolic link), not-regular-file or unreadable, with the
        name and the URL. Kept originals are not recorded in the manifest and are not checked.
        With --json, one JSON object per problem (event 'problem': url, name, problem, expectedBytes,
        actualBytes, expectedSHA256, actualSHA256) and a last one (event 'summary': checked, problems,
        unreadableLines). Exit status: 0 when every file is as recorded, 1 when any is not (or the manifest
        cannot be read: a missing manifest, or one that is a link or not a regular file), 2 on usage errors.
        """
    let options: [OptionSpec] = [
        .flag("json", help: "Print problems and the summary as JSON Lines on standard output.")
    ]

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitStatus {
        guard let folder = arguments.positionals.first else { throw .missingArgument("DIR") }
        guard arguments.positionals.count == 1 else { throw .unexpectedArgument(arguments.positionals[1]) }
        let json = arguments.isSet("json")
        let verification: FolderVerification
        do throws(DownloadError) {
            verification = try FolderVerifier.verify(folder: URL(fileURLWithPath: folder))
        } catch {
            console.error(error.description, context: "verify")
            if json { console.printLine(JSONLineEncoder().line(for: VerifyFailureRecord(error))) }
            return .failure
        }
        let encoder = JSONLineEncoder()
        for problem in verification.problems {
            console.printLine(json ? encoder.line(for: VerifyProblemRecord(problem)) : Self.line(for: problem))
        }
        if json {
            console.printLine(encoder.line(for: VerifySummaryRecord(verification)))
        } else {
            let files = "\(verification.checked) stored file\(verification.checked == 1 ? "" : "s")"
            let summary =
                verification.problems.isEmpty
                ? "verify: \(files) checked, all as recorded"
                : "verify: \(files) checked, \(verification.problems.count) not as recorded"
            console.errorText(summary + "\n")
        }
        if verification.unreadableLines > 0 {
            console.warning("\(verification.unreadableLines) manifest line(s) could not be read and were skipped")
        }
        return verification.problems.isEmpty ? .success : .failure
    }

    /// The human line of `problem`; the name and the URL come from the manifest, so they are escaped.
    static func line(for problem: StoredFileProblem) -> String {
        let name = UntrustedText.escaped(problem.name)
        let url = UntrustedText.escaped(problem.url)
        let what: String
        switch problem.kind {
        case .missing: what = "missing"
        case .wrongSize: what = "wrong-size: \(problem.actualBytes ?? 0) bytes, recorded \(problem.expectedBytes)"
        case .wrongHash: what = "wrong-hash: SHA-256 \(problem.actualSHA256 ?? "?"), recorded \(problem.expectedSHA256)"
        case .unsafeName: what = "unsafe-name: not one plain name inside the folder (or a symbolic link); not read"
        case .notRegularFile: what = "not-regular-file"
        case .unreadable: what = "unreadable"
        }
        return "\(name): \(what) (\(url))"
    }
}

/// `--json` line of one problem.
private struct VerifyProblemRecord: Encodable {
    let event = "problem"
    let url: String
    let name: String
    let problem: String
    let expectedBytes: Int
    let actualBytes: Int?
    let expectedSHA256: String
    let actualSHA256: String?

    init(_ problem: StoredFileProblem) {
        url = problem.url
        name = problem.name
        self.problem = problem.kind.shortName
        expectedBytes = problem.expectedBytes
        actualBytes = problem.actualBytes
        expectedSHA256 = problem.expectedSHA256
        actualSHA256 = problem.actualSHA256
    }
}

/// `--json` last line.
private struct VerifySummaryRecord: Encodable {
    let event = "summary"
    let checked: Int
    let problems: Int
    let unreadableLines: Int

    init(_ verification: FolderVerification) {
        checked = verification.checked
        problems = verification.problems.count
        unreadableLines = verification.unreadableLines
    }
}

/// `--json` line when the manifest cannot be read.
private struct VerifyFailureRecord: Encodable {
    let event = "error"
    let error: String
    let errorKind: String

    init(_ failure: DownloadError) {
        error = failure.description
        errorKind = failure.shortName
    }
}
