import Foundation
import PixpipeLocking

/// The SHA-256 of a response body, computed as curl delivers it (``ResponseBodyObserver``), so a body
/// stored as it came is never read a second time for its digest.
///
/// It also counts the bytes it saw: ``digest(ofBodyOf:)`` gives the digest only when the count matches the
/// body in hand, so a digest can never describe bytes other than the ones stored.
///
/// Why `@unchecked Sendable` is safe: the only stored state besides the `let` lock is `hasher` and `count`,
/// and every read or write of them happens inside `lock.withLock`, so no two threads touch them at once.
/// (`SHA256` owns a C context and cannot be copied, so it cannot be the `Locked` value itself.)
final class BodyDigester: ResponseBodyObserver, @unchecked Sendable {
    private let lock = Locked(())
    private var hasher = SHA256()
    private var count = 0
    private var isFinished = false

    /// A digester that has seen nothing.
    init() {}

    func begin() {
        lock.withLock { _ in
            hasher = SHA256()
            count = 0
            isFinished = false
        }
    }

    func observe(_ chunk: UnsafeRawBufferPointer) {
        lock.withLock { _ in
            hasher.update(bytes: chunk)
            count += chunk.count
        }
    }

    /// The digest of what was observed if that was `body.count` bytes, else of `body` itself (hashed now);
    /// once per body.
    func digest(ofBodyOf body: Data) -> SHA256.Digest {
        let streamed: SHA256.Digest? = lock.withLock { _ in
            guard !isFinished, count == body.count else { return nil }
            isFinished = true
            return hasher.finalize()
        }
        return streamed ?? SHA256.hash(body)
    }
}
