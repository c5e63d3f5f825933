// STUB: the HTTP layer work fills this module in.
