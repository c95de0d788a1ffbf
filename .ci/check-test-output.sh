#!/usr/bin/env bash
# Checks what CONTRIBUTING.md says about the output of `swift test` against a log of that output:
# - the closing line has the form CONTRIBUTING.md quotes (its first `Test run with …` sample, where each
#   `…` stands for a number), so the sample cannot go stale;
# - the tests that record known issues are exactly the tests named "Fails on purpose: …" (each one
#   leaks or fails deliberately inside `withKnownIssue`), so a newcomer can tell them apart from
#   real failures by name;
# - the known issues of those tests add up to the number on the closing line.
#
# Usage: .ci/check-test-output.sh LOG   (LOG: the output of `swift test`, as .ci/run saves it)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
log="${1:?usage: check-test-output.sh LOG}"
prefix='Fails on purpose: '

sample="$(grep -oE '`Test run with [^`]+`' "$repo/CONTRIBUTING.md" | head -n 1 | tr -d '`' || true)"
if [[ -z $sample ]]; then
  echo "check-test-output: CONTRIBUTING.md quotes no \`Test run with …\` line" >&2
  exit 1
fi
# The sample as a pattern: each … is a number, everything else is literal.
pattern="$(sed -E 's/[][().*+?^$|\\{}]/\\&/g; s/…/[0-9][0-9.]*/g' <<<"$sample")"
closing="$(grep -oE 'Test run with [0-9]+ tests? in [0-9]+ suites? (passed|failed).*' "$log" | tail -n 1 || true)"
if [[ -z $closing ]]; then
  echo "check-test-output: the log has no Swift Testing closing line" >&2
  exit 1
fi
if ! grep -qE "^$pattern" <<<"$closing"; then
  echo "check-test-output: the closing line does not have the form CONTRIBUTING.md quotes" >&2
  echo "  CONTRIBUTING.md: $sample" >&2
  echo "  swift test: $closing" >&2
  exit 1
fi

# Each test's own result line: `Test "Name" passed after 0.01 seconds with 2 known issues.`, or
# `Test name(arguments:) passed …` for a test without a display name.
failures=0
known_total=0
with_issues=0
while IFS= read -r line; do
  name="$(sed -E 's/^.*Test (.*) passed after [0-9.]+ seconds( with [0-9]+ known issues?)?\.$/\1/' <<<"$line")"
  issues="$(grep -oE 'with [0-9]+ known issues?\.$' <<<"$line" | grep -oE '[0-9]+' || true)"
  named="no"
  if [[ $name == "\"$prefix"* ]]; then named="yes"; fi
  if [[ -n $issues ]]; then
    with_issues=$((with_issues + 1))
    known_total=$((known_total + issues))
    if [[ $named == no ]]; then
      echo "check-test-output: $name records $issues known issue(s) but is not named \"$prefix…\"" >&2
      failures=$((failures + 1))
    fi
  elif [[ $named == yes ]]; then
    echo "check-test-output: $name is named \"$prefix…\" but recorded no known issue" >&2
    failures=$((failures + 1))
  fi
done < <(grep -E 'Test .* passed after [0-9.]+ seconds' "$log" | grep -vE 'Test run with|Suite ')

closing_known="$(grep -oE 'with [0-9]+ known issues?' <<<"$closing" | grep -oE '[0-9]+' || echo 0)"
if ((closing_known != known_total)); then
  echo "check-test-output: the closing line counts $closing_known known issues; the tests' own lines add up to $known_total" >&2
  failures=$((failures + 1))
fi
if ((failures > 0)); then exit 1; fi
echo "check-test-output: $with_issues tests record $known_total known issues, each named \"$prefix…\"; closing line: $closing"
