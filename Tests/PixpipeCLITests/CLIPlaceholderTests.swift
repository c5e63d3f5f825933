import Testing

// STUB: replaced by the CLI tests.
@Test func cliPlaceholder() {}
