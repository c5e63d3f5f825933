"""Runs a command-line peer on each file and reports the time it prints for the operation itself.

    tool_timer.py --pattern REGEX --files F1 F2 ... -- TOOL ARGS... {}
    tool_timer.py --rate-pattern REGEX --files F1 F2 ... -- TOOL ARGS... {}

`{}` in the command is replaced by each file in turn. REGEX must capture the seconds the tool
prints (on stdout or stderr) for one file, e.g. dwebp -v's "Time to decode picture: 0.061s".
A tool that prints a speed instead (djxl: "4032 x 3024, geomean: 58.60 MP/s [...], 3 reps") is
read with --rate-pattern, whose three groups are the width, the height and the megapixels per
second; the file's seconds are then its megapixels over that speed.
Prints one JSON object with the keys pixpipe-bench prints (seconds_median is the sum over the
files), so the harness reads it as an in-process time: start-up, file reading and output writing
are left out, as they are for pixpipe-bench and pil_ops.py. Exits 1 when the tool fails or
prints no time.
"""

import argparse
import json
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    kind = parser.add_mutually_exclusive_group(required=True)
    kind.add_argument("--pattern", help="regex with one group: the seconds")
    kind.add_argument("--rate-pattern", help="regex with three groups: width, height, megapixels per second")
    parser.add_argument("--files", nargs="+", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if "{}" not in command:
        parser.error("the command needs {} where the file goes")
    pattern = re.compile(args.pattern or args.rate_pattern)
    total = 0.0
    for path in args.files:
        argv = [path if part == "{}" else part for part in command]
        result = subprocess.run(argv, capture_output=True, text=True)
        if result.returncode != 0:
            sys.stderr.write(result.stdout + result.stderr)
            print(f"tool_timer: {' '.join(argv)} exited {result.returncode}", file=sys.stderr)
            return 1
        match = pattern.search(result.stdout + "\n" + result.stderr)
        if not match:
            print(f"tool_timer: {argv[0]} printed no time matching {pattern.pattern!r}", file=sys.stderr)
            return 1
        if args.rate_pattern:
            width, height, rate = match.groups()
            total += int(width) * int(height) / 1e6 / float(rate)
        else:
            total += float(match.group(1))
    print(json.dumps({"op": "tool", "files": len(args.files), "seconds_median": total, "seconds_min": total}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
