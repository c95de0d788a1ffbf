#!/usr/bin/env bash
# Runs the presentation-demo executable under valgrind and fails unless it reports 0 bytes
# definitely lost (and no memory errors).
#
#   .ci/valgrind-demo.sh                 builds `presentation-demo` (debug) and checks it
#   .ci/valgrind-demo.sh BINARY [ARGS]   checks another binary, e.g. to try the script itself
#
# Installs valgrind with apt-get when it is missing (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

bash .ci/ensure-valgrind.sh

if [ $# -gt 0 ]; then
  binary=$1
  shift
else
  step "build presentation-demo"
  swift build --product presentation-demo 2>&1
  binary="$(swift build --show-bin-path)/presentation-demo"
fi

step "valgrind --leak-check=full $binary $*"
mkdir -p .build
log=.build/valgrind-demo.log
status=0
# Only definite leaks count as errors: the Swift runtime keeps metadata caches reachable until exit.
valgrind --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite \
  --error-exitcode=97 --log-file="$log" "$binary" "$@" || status=$?
cat "$log"

if [ "$status" -ne 0 ]; then
  echo "valgrind: the program failed or valgrind found errors (exit status $status)"
  exit 1
fi
if grep -q "All heap blocks were freed -- no leaks are possible" "$log"; then
  echo "valgrind: 0 bytes definitely lost (all heap blocks freed)"
elif grep -q "definitely lost: 0 bytes in 0 blocks" "$log"; then
  echo "valgrind: 0 bytes definitely lost"
else
  echo "valgrind: memory definitely lost (see the LEAK SUMMARY above)"
  exit 1
fi
