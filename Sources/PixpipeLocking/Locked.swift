#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value that threads share, reachable only while holding a `pthread_mutex_t`.
///
/// It stands in for `Synchronization.Mutex`, with the same `withLock` shape. On Linux `Mutex` locks with
/// a raw futex that ThreadSanitizer cannot see, so every state it guards is reported as a race;
/// `pthread_mutex_lock` is intercepted by the sanitizers, so `scripts/test --sanitize thread` sees the
/// happens-before edges. Being a class, it is shared by reference wherever a `Mutex` was a stored `let`.
///
/// Why `@unchecked Sendable` is safe: `value` is internal to this module (visible elsewhere only to the
/// inlined body of `withLock`), and the only code that reads or writes it is the
/// body of ``withLock(_:)``, which runs between `pthread_mutex_lock` and `pthread_mutex_unlock` on the
/// same mutex, so no two threads ever touch it at once. The mutex lives in its own heap allocation made
/// once in `init` and freed in `deinit`, so its address never moves (a `pthread_mutex_t` stored inline
/// in a Swift property has no stable address for `&`). `deinit` runs only when no other reference,
/// and so no other thread inside `withLock`, remains. As with `Mutex`, the initial value and whatever
/// the body returns are `sending`, so non-`Sendable` state cannot escape the lock still shared.
package final class Locked<Value>: @unchecked Sendable {
    // `@usableFromInline` so that `withLock` can be inlined into its callers in other modules: a call
    // through the generic, closure-taking function cost more than the mutex on the transport's hot path.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    /// Creates the lock around `initialValue`.
    package init(_ initialValue: sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        // Fails only for lack of memory or with invalid attributes (we pass none): nothing to recover.
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns; the lock is released
    /// however `body` exits. Not reentrant: calling `withLock` on the same instance inside `body` deadlocks.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
