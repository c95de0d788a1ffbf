#!/usr/bin/env python3
"""Checks the Markdown of the guides for what reads badly in the documentation site:

- a line of a code listing (a fenced block) longer than 90 columns: the site's content column
  shows about that many, and cuts or scrolls a longer one (.ci/docc-browser-check.py measures the
  rendering; this names the source line);
- a heading with backticks: DocC shows them literally in a heading (the first line of a
  documentation extension, `# ``Module/Symbol```, is a symbol link, not a heading, and is allowed).

Usage: check-docs-source.py MARKDOWN...   (exit 1, listing each line, when one breaks a rule)
"""
import re
import sys

MAXIMUM_COLUMNS = 90
FENCE = re.compile(r"^[ \t]*```")


def problems(path):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    found = []
    inside = False  # within a fenced block
    for index, line in enumerate(lines):
        where = "%s:%d" % (path, index + 1)
        if FENCE.match(line) and (not inside or line.strip() == "```"):
            inside = not inside  # a fence opens a block; a bare one closes it
        elif inside and len(line) > MAXIMUM_COLUMNS:
            found.append("%s: a listing line of %d columns (at most %d): %s"
                         % (where, len(line), MAXIMUM_COLUMNS, line.strip()[:60]))
        elif not inside and line.startswith("#") and "`" in line and not (index == 0 and line.startswith("# ``")):
            found.append("%s: a heading with backticks, shown literally in the site: %s" % (where, line))
    return found


def main():
    found = [problem for path in sys.argv[1:] for problem in problems(path)]
    if found:
        print("check-docs-source: %d line(s) the site would show badly:" % len(found), file=sys.stderr)
        for problem in found:
            print("  " + problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
