// STUB: the test server work fills this in.
