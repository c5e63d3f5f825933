// STUB: the CLI work fills this in.
import Pixpipe

print("pixpipe")
