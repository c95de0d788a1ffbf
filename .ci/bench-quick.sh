#!/usr/bin/env bash
# Builds presentation-bench (the package Benchmarks/) in release and runs its quick mode, so the
# benchmark never rots. It reports figures and budget rows; it does not fail on slow timings. It
# fails when a figure cannot be produced (the benchmark then exits non-zero), when the build fails,
# or when a post allocates: allocation counts come from valgrind and are exact, not noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

step "presentation-bench --quick (release)"
# The allocation count needs valgrind (build_release_bench installs it); without it --quick would
# skip that figure.
bench="$(build_release_bench)"
log=$(mktemp)
"$bench" --quick | tee "$log"
if ! grep -qE '^heap allocations per post' "$log"; then
  echo "bench-quick: the allocation count is missing" >&2
  exit 1
fi
if grep -E '^heap allocations per post' "$log" | grep -q 'NOT met'; then
  echo "bench-quick: a post allocated on the heap in steady state (budget: 0)" >&2
  exit 1
fi

step "presentation-bench --leak-walk (debug: the registration-time check runs there)"
# Timings, reported and never enforced; this fails only if the figures cannot be produced.
swift run --package-path Benchmarks presentation-bench --leak-walk | tee "$log"
grep -qE '^budget: the registration-time check' "$log"
grep -qE '^budget: a leak report with 10,000' "$log"
