#!/usr/bin/env bash
# Builds presentation-bench in release and runs its quick mode, so the benchmark never rots.
# It reports figures and budget rows; it does not fail on slow timings. It fails when a figure
# cannot be produced (the benchmark then exits non-zero), when the build fails, or when a post
# allocates: allocation counts come from valgrind and are exact, not noisy.
set -euo pipefail
cd "$(dirname "$0")/.."

# The allocation count needs valgrind; without it --quick would skip that figure.
bash .ci/ensure-valgrind.sh
printf '\n=== presentation-bench --quick (release)\n'
swift build -c release --product presentation-bench 2>&1
log=$(mktemp)
"$(swift build -c release --show-bin-path)/presentation-bench" --quick | tee "$log"
if ! grep -qE '^heap allocations per post' "$log"; then
  echo "bench-quick: the allocation count is missing" >&2
  exit 1
fi
if grep -E '^heap allocations per post' "$log" | grep -q 'NOT met'; then
  echo "bench-quick: a post allocated on the heap in steady state (budget: 0)" >&2
  exit 1
fi
