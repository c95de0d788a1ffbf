#!/usr/bin/env python3
"""Checks the documentation's listings of code that must NOT compile, against the compiler.

A guide sometimes shows a mistake and the error it gets: the `NotificationCenter` block observer
the Swift 6 language mode refuses, a non-`Sendable` owner on `TypedNotificationCenter`, a main-actor
sequence looped over off the main actor. Such a listing is fenced ```swift-nocompile and carries,
right after each line the compiler rejects, a comment with the error's exact text:

    center.observe(Saved.self, owner: badge) { badge, _ in badge.count += 1 }
    // error: type 'Badge' does not conform to the 'Sendable' protocol

A message too long for the guides' 90 columns continues on the comment lines right after it, each
starting `//   ` (three spaces), joined with one space:

    // error: main actor-isolated property 'text' can not be mutated from a
    //   Sendable closure

A listing may quote a warning the same way, `// warning: <the exact message>`: a mistake the
compiler only warns about, such as an unused token, which is why such a listing is not compiled with
the others (which treat warnings as errors).

For every such block (a `swift-nocompile` block with at least one `// error:` or `// warning:`
line), this script type-checks the block on its own in the Swift 6 language mode against the modules
.ci/check-docs.sh just built, and fails unless the compiler reports exactly the errors and warnings
the comments name, each on the line just above its comment (the comment lines themselves are blanked
before compiling, so line numbers do not move): none missing, none extra, each of the kind quoted.
So a quoted message cannot go stale, and a listing cannot fail for a reason other than the one it
shows. `swift-nocompile` blocks without such comments (Apple-only code: `#selector`, Combine) stay
skipped.

Usage: check-docs-failures.py MODULES_DIR MARKDOWN...
"""

import os
import re
import subprocess
import sys
import tempfile

ERROR_COMMENT = re.compile(r"^[ \t]*// (?P<kind>error|warning): (?P<message>.*\S)[ \t]*$")
CONTINUATION = re.compile(r"^[ \t]*//   (?P<message>\S.*\S|\S)[ \t]*$")
FENCE = re.compile(r"^([ \t]*)```(.*)$")
DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): (?P<kind>error|warning): (?P<message>.*)$")


def blocks(markdown):
    """(first line number, lines) of each swift-nocompile block that quotes an error or a warning."""
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


def quoted(body):
    """For each line of `body`, whether it is part of a quoted message (blanked before compiling)."""
    marks = []
    in_comment = False
    for text in body:
        in_comment = bool(ERROR_COMMENT.match(text)) or (in_comment and bool(CONTINUATION.match(text)))
        marks.append(in_comment)
    return marks


def expected_diagnostics(start, body):
    """{(markdown line, kind, message)} the comments promise: each applies to the nearest line
    above it that is not part of such a comment; continuation lines join its message."""
    expected = []
    target = None
    for offset, (text, is_quote) in enumerate(zip(body, quoted(body))):
        match = ERROR_COMMENT.match(text)
        if match:
            if target is None:
                raise SystemExit(f"an // {match.group('kind')}: comment at line {start + offset} has no line above it")
            expected.append([target, match.group("kind"), match.group("message")])
        elif is_quote:
            expected[-1][2] += " " + CONTINUATION.match(text).group("message")
        else:
            target = start + offset
    return {tuple(item) for item in expected}


def main():
    modules, markdowns = sys.argv[1], sys.argv[2:]
    checked = 0
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        for markdown in markdowns:
            for start, body in blocks(markdown):
                checked += 1
                expected = expected_diagnostics(start, body)
                source = os.path.join(scratch, f"block{checked}.swift")
                with open(source, "w", encoding="utf-8") as handle:
                    handle.write(f'#sourceLocation(file: "{markdown}", line: {start})\n')
                    for text, is_quote in zip(body, quoted(body)):
                        handle.write(("" if is_quote else text) + "\n")
                result = subprocess.run(
                    ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules, source],
                    capture_output=True, text=True)
                reported = set()
                for line in (result.stdout + result.stderr).splitlines():
                    match = DIAGNOSTIC.match(line)
                    if match and match.group("file") == markdown:
                        message = re.sub(r" \[#[\w-]+\]$", "", match.group("message"))
                        reported.add((int(match.group("line")), match.group("kind"), message))
                missing = sorted(expected - reported)
                extra = sorted(reported - expected)
                expects_error = any(kind == "error" for _, kind, _ in expected)
                if (result.returncode == 0) == expects_error or missing or extra:
                    lines = [f"{markdown}, block starting at line {start}:"]
                    if result.returncode == 0 and expects_error:
                        lines.append("  compiles, but its comments say it must not")
                    lines += [f"  {markdown}:{line}: expected {kind} not reported: {message}"
                              for line, kind, message in missing]
                    lines += [f"  {markdown}:{line}: {kind} reported, but no // {kind}: comment names it: {message}"
                              for line, kind, message in extra]
                    if not reported and result.returncode != 0:
                        lines.append("  the compiler said:\n" + result.stderr)
                    failures.append("\n".join(lines))
    if failures:
        print("check-docs: listings that must not compile, and do not say why:", file=sys.stderr)
        print("\n".join(failures), file=sys.stderr)
        return 1
    print(f"check-docs: all {checked} listing(s) of a mistake get exactly the errors and warnings they quote")
    return 0


if __name__ == "__main__":
    sys.exit(main())
