#!/usr/bin/env bash
# Builds IntegrationTests/HarnessConsumer, an outside package that depends on this one by path and
# leaks on purpose, once from Swift Testing (@Test(.detectsLeaks) + trackForLeaks) and once from
# XCTest (XCTestCase.trackForLeaks). Passes only if its `swift test` FAILS and the output names each
# leaked type at the line where it was tracked, names the `observe` line of each of the five
# observer leaks (ObserverLeakTests.swift), and shows each of their five correct twins passing; and,
# for every owner-bound form of every center (AllCentersLeakTests.swift), an owner capture and a
# token cycle that each fail naming their own observe line, with twins that pass.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
consumer="$root/IntegrationTests/HarnessConsumer"
tests="$consumer/Tests/HarnessConsumerTests"
# One scratch directory per checkout, so two clones can run the check at once.
scratch="${HARNESS_CONSUMER_SCRATCH:-$(checkout_tmp harness-consumer)}"

line_of() {  # line_of FILE MARKER -> the line number holding MARKER
  grep -n "$2" "$1" | head -n 1 | cut -d: -f1
}
testing_line="$(line_of "$tests/SwiftTestingLeakTests.swift" 'harness-consumer: swift-testing leak line')"
xctest_line="$(line_of "$tests/XCTestLeakTests.swift" 'harness-consumer: xctest leak line')"

observers="$tests/ObserverLeakTests.swift"
observe_lines=()
for n in 1 2 3 4 5; do observe_lines+=("$(line_of "$observers" "// observe line $n\$")"); done

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "swift test in $consumer (scratch: $scratch)"
if swift test --package-path "$consumer" --scratch-path "$scratch" >"$log" 2>&1; then
  cat "$log"
  echo "FAIL: the consumer's deliberately leaking tests passed; the harness reported nothing." >&2
  exit 1
fi

status=0
expect() {  # expect DESCRIPTION FIXED-STRING
  if grep -qF -- "$2" "$log"; then
    echo "ok: $1"
  else
    echo "FAIL: $1 (no \"$2\" in the output)" >&2
    status=1
  fi
}
expect "Swift Testing issue at the tracking line" "SwiftTestingLeakTests.swift:$testing_line:"
expect "Swift Testing names the leaked type" "Leaked HarnessConsumerTests.LeakyDocument"
expect "XCTest failure at the tracking line" "XCTestLeakTests.swift:$xctest_line: error"
expect "XCTest names the leaked type" "Leaked HarnessConsumerTests.LeakyViewModel: still alive"
expect "XCTest names the holder" "- LeakyViewModel.delegate.viewModel"
expect "XCTest: only the leaking test fails" "Executed 2 tests, with 1 failure"
expect "Swift Testing: every leaking test fails, nothing else" "Test run with 48 tests in 5 suites failed"
expect "Swift Testing: the leaking test has one issue" "Test documentIsReleased() failed after"
# The observer leaks: each fails naming its own `observe` line; each twin passes.
file="HarnessConsumerTests/ObserverLeakTests.swift"
expect "owner captured, local center: failure at the observe line" \
  "ObserverLeakTests.swift:${observe_lines[0]}:"
expect "owner captured, local center: the registration-time message" \
  "The handler passed to TypedNotificationCenter.observe(_:owner:) at $file:${observe_lines[0]} captures its owner, a ListModel"
expect "owner captured, default center: the registration-time message" \
  "The handler passed to TypedNotificationCenter.observe(_:owner:) at $file:${observe_lines[1]} captures its owner, a ListModel"
expect "owner captured, default center: the leak report names the handler" \
  "- the handler of Refresh observed by ListModel at $file:${observe_lines[1]}, posting thread, which captures it"
expect "token handler capturing its token holder: named, with the cycle" \
  "- the handler of Refresh observed (token) at $file:${observe_lines[2]}, posting thread, which captures it (its token is stored in DocumentModel.token: a cycle through the center)"
expect "captured var: named" \
  "- the handler of Refresh observed (token) at $file:${observe_lines[3]}, posting thread, which captures it in a var"
expect "capture through another object: named" \
  "- the handler of Refresh observed (token) at $file:${observe_lines[4]}, posting thread, which captures it through Loader.list"
for leaking in ownerCapturedWithALocalCenter ownerCapturedWithTheDefaultCenter \
  tokenHandlerCapturingTheObjectThatStoresTheToken capturedVarHoldingTheObject captureThroughAnotherObject; do
  expect "$leaking fails" "Test $leaking() failed after"
done
for twin in ownerArgumentWithALocalCenter weakCaptureWithTheDefaultCenter tokenHandlerCapturingTheObjectWeakly \
  capturedVarHoldingAnotherObject captureOfAnObjectThatDoesNotReachIt; do
  expect "twin $twin passes" "Test $twin() passed after"
done
# Every owner-bound form of every center (AllCentersLeakTests.swift): the handler capturing its
# owner fails at registration naming its center, form and own line; the token stored in what the
# handler captures fails naming its own line and the cycle; each twin passes.
all_centers="$tests/AllCentersLeakTests.swift"
all_file="HarnessConsumerTests/AllCentersLeakTests.swift"
forms=(
  "typedObserve|TypedNotificationCenter|observe(_:owner:)|posting thread"
  "typedObserveOnMainActor|TypedNotificationCenter|observeOnMainActor(_:owner:)|main actor"
  "typedObserveOnce|TypedNotificationCenter|observeOnce(_:owner:)|posting thread, one-shot"
  "mainActorObserve|MainActorNotificationCenter|observe(_:owner:)|main actor"
  "mainActorObserveOnce|MainActorNotificationCenter|observeOnce(_:owner:)|main actor, one-shot"
  "bridgeObserve|FoundationNotificationBridge|observe(_:owner:)|posting thread"
  "bridgeObserveOnMainActor|FoundationNotificationBridge|observeOnMainActor(_:owner:)|main actor"
  "bridgeMainActorMessage|FoundationNotificationBridge|observe(_:owner:from:)|main actor"
  "bridgeAsyncMessage|FoundationNotificationBridge|observe(_:owner:from:)|task"
)
for entry in "${forms[@]}"; do
  IFS='|' read -r id center form delivery <<<"$entry"
  capture_line="$(line_of "$all_centers" "// capture line $id\$")"
  cycle_line="$(line_of "$all_centers" "// cycle line $id\$")"
  expect "$id: the owner capture is reported at its observe line" \
    "The handler passed to $center.$form at $all_file:$capture_line captures its owner, a Holder"
  expect "$id: the owner-capture test fails" "Test ${id}CapturesItsOwner() failed after"
  expect "$id: the token cycle names its observe line" \
    "at $all_file:$cycle_line, $delivery, which captures it (its token is stored in Holder.token: a cycle through the center)"
  expect "$id: the token-cycle test fails" "Test ${id}TokenStoredInWhatTheHandlerCaptures() failed after"
  expect "$id: twin with the owner argument passes" "Test ${id}UsesTheOwnerArgument() passed after"
  expect "$id: twin with a weak capture passes" "Test ${id}TokenStoredInWhatTheHandlerCapturesWeakly() passed after"
done
if [ "$status" -ne 0 ]; then
  cat "$log"
  exit 1
fi
echo "harness consumer check passed: both frameworks reported the deliberate leaks at their tracking lines;"
echo "each observer leak, on every owner-bound form of every center, named its observe line and each twin passed"
