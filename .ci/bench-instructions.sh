#!/usr/bin/env bash
# Builds presentation-bench in release and runs `--instructions --quick --enforce`: instructions and
# heap allocations per operation counted by callgrind (deterministic, so they can fail CI, unlike
# timings), bytes per registration, and the instruction budget.
# It fails when a figure cannot be produced or when a budget row CI enforces is not met. The rows
# it enforces are listed in ONE place, `InstructionBudget.enforced` in
# Sources/presentation-bench/InstructionBudget.swift; the others print "not met (target …)".
# About 40 s of CPU on this machine (22 valgrind children, two at a time).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

step "presentation-bench --instructions --quick --enforce (release)"
bench="$(build_release_bench)"
"$bench" --instructions --quick --enforce
