import Testing

// STUB: replaced by the HTTP layer's tests.
@Test func httpPlaceholder() {}
