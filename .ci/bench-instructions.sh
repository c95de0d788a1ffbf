#!/usr/bin/env bash
# Builds presentation-bench (the package Benchmarks/) in release and runs `--instructions --quick
# --enforce`: instructions and heap allocations per operation counted by callgrind (deterministic,
# so they can fail CI, unlike timings), bytes per registration, and the instruction budget.
# It fails when a figure cannot be produced or when a budget row CI enforces is not met. The rows
# it enforces are listed in ONE place, `InstructionBudget.enforced` in
# Benchmarks/Sources/presentation-bench/InstructionBudget.swift; the others print
# "not met (target …)".
# About 50 s of CPU on this machine (32 valgrind children, two at a time, and one timed child for
# every-object tracking's 1,000,000 objects).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

step "presentation-bench --instructions --quick --enforce (release)"
bench="$(build_release_bench)"
"$bench" --instructions --quick --enforce
