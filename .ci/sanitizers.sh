#!/usr/bin/env bash
# Runs the concurrency tests (ReliabilityTests, the core's PresentationModelTests, the capture
# reader's PresentationCaptureReadingTests, the harness's PresentationModelTestingTests and the
# every-object allocation hook's tests, PresentationModelDiagnosticsTests.EveryObject*) under
# ThreadSanitizer, ReliabilityTests, PresentationModelTests and the allocation hook's tests under
# AddressSanitizer (with LeakSanitizer), and PresentationCaptureReadingTests under AddressSanitizer
# without it; the every-object corpus (EveryObjectCorpusTests) under both, without LeakSanitizer.
# Any sanitizer report fails the run, even one that did not change a test's outcome.
# The allocation hook's tests install it in their process, so the suites run beside them do so with
# the runtime's swizzle flag set (every retain and release through the mended adapter).
#
# Each sanitizer builds into its own scratch directory (.build/tsan, .build/asan) so the plain
# debug build in .build is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

# run_sanitized LOG PATTERN COMMAND...: runs COMMAND, keeping its output in LOG; fails when the
# command fails or when its output contains PATTERN (a sanitizer report).
run_sanitized() {
  local log=$1 pattern=$2
  shift 2
  local status=0 started=$SECONDS
  "$@" >"$log" 2>&1 || status=$?
  cat "$log"
  local reports
  reports=$(grep -c -E "$pattern" "$log" || true)
  printf -- '--- %s: exit status %d, sanitizer reports %d, %d s\n' "$*" "$status" "$reports" $((SECONDS - started))
  if [ "$reports" -ne 0 ] || [ "$status" -ne 0 ]; then
    exit 1
  fi
}

mkdir -p .build
# The AddressSanitizer build also checks every engine's storage after every change
# (PRESENTATION_INTERNAL_CHECKS, as swift-collections' COLLECTIONS_INTERNAL_CHECKS): the core and
# reliability suites run there with the checks on, StorageInvariantTests among them (skipped where
# the checks are not compiled in). One build for both ASan runs.
asan=(--sanitize=address --scratch-path .build/asan -Xswiftc -DPRESENTATION_INTERNAL_CHECKS)
# The stress suite keeps four threads busy; it runs on its own so that it does not starve the
# time-limited tests of the other suites on a small machine. All runs share one build.
reliability=(--filter '^ReliabilityTests\.')
everyObject=(--filter '^PresentationModelDiagnosticsTests\.EveryObject')
others=(--filter '^PresentationModelTests\.' --filter '^PresentationModelTestingTests\.' --filter '^PresentationCaptureReadingTests\.'
  "${everyObject[@]}")
# halt_on_error: the first race ends the process with a failure instead of a warning.
tsan_options="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
asan_options="halt_on_error=1 detect_leaks=1 ${ASAN_OPTIONS:-}"
lsan_options="suppressions=$PWD/.ci/lsan-suppressions.txt print_suppressions=0 ${LSAN_OPTIONS:-}"

step "ThreadSanitizer: ReliabilityTests"
TSAN_OPTIONS="$tsan_options" run_sanitized .build/tsan-reliability.log "WARNING: ThreadSanitizer" \
  swift test --sanitize=thread --scratch-path .build/tsan "${reliability[@]}"

step "ThreadSanitizer: PresentationModelTests, PresentationModelTestingTests, PresentationCaptureReadingTests, EveryObject*"
TSAN_OPTIONS="$tsan_options" run_sanitized .build/tsan-core.log "WARNING: ThreadSanitizer" \
  swift test --sanitize=thread --scratch-path .build/tsan "${others[@]}"

# The every-object corpus (EveryObjectCorpusTests: leaks from other projects, each expected to fail
# naming its holder) under ThreadSanitizer, with the heap scan on (it is off there by default, for
# its cost): 0 reports, 0 crashes, 0 hangs, every holder named but the one its case marks
# (SanitizerGap).
step "ThreadSanitizer, heap scan on: EveryObjectCorpusTests"
PRESENTATION_MODEL_HEAP_SCAN=1 TSAN_OPTIONS="$tsan_options" run_sanitized .build/tsan-corpus.log "WARNING: ThreadSanitizer" \
  swift test --sanitize=thread --scratch-path .build/tsan --filter '^EveryObjectCorpusTests\.'

step "AddressSanitizer + LeakSanitizer: ReliabilityTests, PresentationModelTests, EveryObject*"
ASAN_OPTIONS="$asan_options" LSAN_OPTIONS="$lsan_options" \
  run_sanitized .build/asan.log "ERROR: (AddressSanitizer|LeakSanitizer)" \
  swift test "${asan[@]}" "${reliability[@]}" --filter '^PresentationModelTests\.' \
  "${everyObject[@]}"

# The capture reader's tests under AddressSanitizer, for memory errors only: their corpus builds
# Foundation Timers, which swift-corelibs-foundation never frees on Linux (CFRunLoopTimerCreate and
# what the timer's block holds, even after invalidate()), so LeakSanitizer is off for this run.
# The every-object corpus too: a few of its leaks cannot be undone (a closure kept in a var it
# captures, a block pending for ten minutes), so they stay until exit.
step "AddressSanitizer (memory errors; leaks not checked): PresentationCaptureReadingTests, EveryObjectCorpusTests"
ASAN_OPTIONS="halt_on_error=1 detect_leaks=0 ${ASAN_OPTIONS:-}" \
  run_sanitized .build/asan-capture.log "ERROR: AddressSanitizer" \
  swift test "${asan[@]}" --filter '^PresentationCaptureReadingTests\.' --filter '^EveryObjectCorpusTests\.'
