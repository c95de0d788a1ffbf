#!/usr/bin/env python3
"""Checks the documentation's listings of code that must NOT compile, against the compiler.

A guide sometimes shows a mistake and the error it gets: the `NotificationCenter` block observer
the Swift 6 language mode refuses, a non-`Sendable` owner on `TypedNotificationCenter`, a main-actor
sequence looped over off the main actor. Such a listing is fenced ```swift-nocompile and carries,
right after each line the compiler rejects, a comment with the error's exact text:

    center.observe(Saved.self, owner: badge) { badge, _ in badge.count += 1 }
    // error: type 'Badge' does not conform to the 'Sendable' protocol

For every such block (a `swift-nocompile` block with at least one `// error:` line), this script
type-checks the block on its own in the Swift 6 language mode, with warnings as errors, against the
modules .ci/check-docs.sh just built, and fails unless the compiler reports exactly the errors the
comments name, each on the line just above its comment (the comment lines themselves are blanked
before compiling, so line numbers do not move): no error missing, none extra. So a quoted error
cannot go stale, and a listing cannot fail for a reason other than the one it shows.
`swift-nocompile` blocks without `// error:` (Apple-only code: `#selector`, Combine) stay skipped.

Usage: check-docs-failures.py MODULES_DIR MARKDOWN...
"""

import os
import re
import subprocess
import sys
import tempfile

ERROR_COMMENT = re.compile(r"^[ \t]*// error: (.*\S)[ \t]*$")
FENCE = re.compile(r"^([ \t]*)```(.*)$")
DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): (?P<kind>error|warning): (?P<message>.*)$")


def blocks(markdown):
    """(first line number, lines) of each swift-nocompile block that names an error."""
    found = []
    inside = None
    with open(markdown, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.rstrip("\n")
            fence = FENCE.match(line)
            if inside is None:
                if fence:
                    inside = (fence.group(2).strip(), len(fence.group(1)), number + 1, [])
            elif fence and fence.group(2).strip() == "":
                info, _, start, body = inside
                if info == "swift-nocompile" and any(ERROR_COMMENT.match(text) for text in body):
                    found.append((start, body))
                inside = None
            else:
                indent = inside[1]
                inside[3].append(line[indent:] if line[:indent].strip() == "" else line)
    return found


def expected_errors(start, body):
    """{(markdown line, message)} the comments promise: each applies to the nearest line above it
    that is not such a comment."""
    expected = set()
    target = None
    for offset, text in enumerate(body):
        match = ERROR_COMMENT.match(text)
        if match:
            if target is None:
                raise SystemExit(f"an // error: comment at line {start + offset} has no line above it")
            expected.add((target, match.group(1)))
        else:
            target = start + offset
    return expected


def main():
    modules, markdowns = sys.argv[1], sys.argv[2:]
    checked = 0
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        for markdown in markdowns:
            for start, body in blocks(markdown):
                checked += 1
                expected = expected_errors(start, body)
                source = os.path.join(scratch, f"block{checked}.swift")
                with open(source, "w", encoding="utf-8") as handle:
                    handle.write(f'#sourceLocation(file: "{markdown}", line: {start})\n')
                    for text in body:
                        handle.write(("" if ERROR_COMMENT.match(text) else text) + "\n")
                result = subprocess.run(
                    ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules, source],
                    capture_output=True, text=True)
                reported = set()
                for line in (result.stdout + result.stderr).splitlines():
                    match = DIAGNOSTIC.match(line)
                    if match and match.group("file") == markdown:
                        message = re.sub(r" \[#\w+\]$", "", match.group("message"))
                        reported.add((int(match.group("line")), message))
                missing = sorted(expected - reported)
                extra = sorted(reported - expected)
                if result.returncode == 0 or missing or extra:
                    lines = [f"{markdown}, block starting at line {start}:"]
                    if result.returncode == 0:
                        lines.append("  compiles, but its comments say it must not")
                    lines += [f"  {markdown}:{line}: expected error not reported: {message}" for line, message in missing]
                    lines += [f"  {markdown}:{line}: reported, but no // error: comment names it: {message}"
                              for line, message in extra]
                    if not reported and result.returncode != 0:
                        lines.append("  the compiler said:\n" + result.stderr)
                    failures.append("\n".join(lines))
    if failures:
        print("check-docs: listings that must not compile, and do not say why:", file=sys.stderr)
        print("\n".join(failures), file=sys.stderr)
        return 1
    print(f"check-docs: all {checked} listing(s) that must not compile fail with exactly the errors they quote")
    return 0


if __name__ == "__main__":
    sys.exit(main())
