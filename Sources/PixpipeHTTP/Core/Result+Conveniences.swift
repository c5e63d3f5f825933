// Internal: public extensions on the standard `Result` would reach every `import Pixpipe` (and could clash
// with a user's own); completion handlers hand a plain `Result`, which a `switch` reads.
extension Result {
    /// Transforms the success value with a function that may find nothing; `nil` becomes `failure`.
    ///
    /// The label keeps it apart from the standard `flatMap`, whose transform returns a `Result`.
    ///
    /// ```swift
    /// let name = json.flatMap({ $0["user.name"]?.stringValue }, orFailWith: .missingName)
    /// ```
    func flatMap<NewSuccess>(
        _ transform: (Success) -> NewSuccess?, orFailWith failure: @autoclosure () -> Failure
    ) -> Result<NewSuccess, Failure> {
        switch self {
        case .success(let value):
            guard let transformed = transform(value) else { return .failure(failure()) }
            return .success(transformed)
        case .failure(let error):
            return .failure(error)
        }
    }

    /// Calls `body` with the value when this is a success; returns `self` so `onFailure` can follow.
    @discardableResult
    func onSuccess(_ body: (Success) -> Void) -> Self {
        if case .success(let value) = self { body(value) }
        return self
    }

    /// Calls `body` with the error when this is a failure; returns `self` so `onSuccess` can follow.
    @discardableResult
    func onFailure(_ body: (Failure) -> Void) -> Self {
        if case .failure(let error) = self { body(error) }
        return self
    }
}
