#!/usr/bin/env bash
# Builds and runs IntegrationTests/DiagnosticsConsumer, a program that uses PresentationModelDiagnostics
# as an app's debug build would, and checks that neither it nor the diagnostics product imports or
# links a test framework (XCTest, Swift Testing): the product must be shippable in an app.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/presentationmodel-diagnostics-consumer-$(printf %s "$root" | cksum | cut -d" " -f1)"
mkdir -p "$work"
ln -sfn "$root" "$work/PresentationModel"
rm -rf "$work/DiagnosticsConsumer/Sources"
mkdir -p "$work/DiagnosticsConsumer"
cp -R "$root/IntegrationTests/DiagnosticsConsumer/Package.swift" "$root/IntegrationTests/DiagnosticsConsumer/Sources" \
  "$work/DiagnosticsConsumer/"

status=0
imports="$(grep -rnE '^[[:space:]]*(@testable[[:space:]]+|public[[:space:]]+|internal[[:space:]]+|@_exported[[:space:]]+)*import[[:space:]]+(XCTest|Testing)\b' \
  "$root/Sources/PresentationModelDiagnostics" "$root/Sources/PresentationModel" "$work/DiagnosticsConsumer/Sources" || true)"
if [[ -n $imports ]]; then
  echo "FAIL: a test framework is imported where an app's code must not need one:" >&2
  echo "$imports" >&2
  status=1
fi

cd "$work/DiagnosticsConsumer"
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
