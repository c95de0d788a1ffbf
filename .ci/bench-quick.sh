#!/usr/bin/env bash
# Builds presentation-bench in release and runs its quick mode, so the benchmark never rots.
# It reports figures and budget rows; it does not fail on slow timings. It fails only when a
# figure cannot be produced (the benchmark then exits non-zero) or the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."

printf '\n=== presentation-bench --quick (release)\n'
swift build -c release --product presentation-bench 2>&1
"$(swift build -c release --show-bin-path)/presentation-bench" --quick
