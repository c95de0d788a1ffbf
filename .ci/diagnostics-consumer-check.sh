#!/usr/bin/env bash
# Builds and runs IntegrationTests/DiagnosticsConsumer, a program that uses PresentationModelDiagnostics
# as an app's debug build would, and checks that neither it nor the diagnostics product imports or
# links a test framework (XCTest, Swift Testing): the product must be shippable in an app.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
consumer="$(lay_out_consumer "$(checkout_tmp presentationmodel-diagnostics-consumer)" DiagnosticsConsumer)"

status=0
imports="$(grep -rnE --include='*.swift' '^[[:space:]]*(@testable[[:space:]]+|public[[:space:]]+|internal[[:space:]]+|@_exported[[:space:]]+)*import[[:space:]]+(XCTest|Testing)\b' \
  "$root/Sources/PresentationModelDiagnostics" "$root/Sources/PresentationModel" "$consumer/Sources" || true)"
if [[ -n $imports ]]; then
  echo "FAIL: a test framework is imported where an app's code must not need one:" >&2
  echo "$imports" >&2
  status=1
fi

cd "$consumer"
swift build
output="$(swift run --skip-build diagnostics-consumer)"
echo "$output"
binary="$(swift build --show-bin-path)/diagnostics-consumer"
linked="$(ldd "$binary" | grep -iE 'XCTest|Testing' || true)"
if [[ -n $linked ]]; then
  echo "FAIL: diagnostics-consumer links a test framework:" >&2
  echo "$linked" >&2
  status=1
fi
for expected in "2 live instances, 1 limit exceeded" "Inspector: 2 live, at most 1, OVER BUDGET" \
  "2 tracked at diagnostics_consumer/main.swift:6" "No leaks among 1 tracked objects"; do
  if ! grep -qF -- "$expected" <<<"$output"; then
    echo "FAIL: no \"$expected\" in the report" >&2
    status=1
  fi
done
if ((status == 0)); then
  echo "diagnostics consumer check passed: built and ran with no test framework imported or linked"
fi
exit "$status"
