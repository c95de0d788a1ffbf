# Helpers shared by the scripts in .ci (source it: `. "$(dirname "$0")/lib.sh"`; .ci/run sources
# "$(dirname "$0")/lib.sh" too). Defines functions only: sourcing it changes no option and no folder.

# step TITLE...: a heading in the log, so each part of a run names itself, with the time: the
# wall-clock time of day and the seconds since the script that calls it started.
step() { printf '\n=== %s  [%s, %d s in]\n' "$*" "$(date +%T)" "$SECONDS"; }

# checkout_tmp NAME: a folder under $TMPDIR (or /tmp) for NAME, one per checkout, so that two clones
# on one machine can run the same check at once.
checkout_tmp() {
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  printf '%s/%s-%s\n' "${TMPDIR:-/tmp}" "$1" "$(printf %s "$root" | cksum | cut -d" " -f1)"
}

# lay_out_consumer WORK NAME: copies IntegrationTests/NAME (its Package.swift and Sources) into
# WORK/NAME beside a link WORK/PresentationModel to this checkout, and prints WORK/NAME. A package's
# identity is the last component of its path, so the consumer's `.package(path:
# "../PresentationModel")` names this package whatever the checkout's folder is called.
lay_out_consumer() {
  local work=$1 name=$2 root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  # `|| return`: called as "$(lay_out_consumer ...)", where `set -e` does not reach.
  mkdir -p "$work/$name" || return
  ln -sfn "$root" "$work/PresentationModel" || return
  rm -rf "$work/$name/Sources" || return
  cp -R "$root/IntegrationTests/$name/Package.swift" "$root/IntegrationTests/$name/Sources" "$work/$name/" || return
  printf '%s\n' "$work/$name"
}

# describe_package OUT: empties the folder OUT (made if missing) and writes what the package says
# (`swift package dump-package`, `describe`) to OUT/dump.json and OUT/describe.json for
# package_query. Run from the package root.
describe_package() {
  rm -rf "$1" && mkdir -p "$1" || return
  swift package dump-package >"$1/dump.json" && swift package describe --type json >"$1/describe.json"
}

# package_query OUT QUERY [ARGUMENT]: .ci/package-query.py over what describe_package wrote to OUT
# (name; targets-under DIR; sources, flags or dependencies TARGET), one item a line.
package_query() {
  local out=$1
  shift
  python3 "$(dirname "${BASH_SOURCE[0]}")/package-query.py" "$out/dump.json" "$out/describe.json" "$@"
}

# build_release_bench: installs valgrind if missing (the bench's allocation and instruction counts
# need it), builds presentation-bench (a package of its own, Benchmarks/, which depends on this one
# by path) in release and prints the path of the binary; their output goes to stderr. Run from the
# package root.
build_release_bench() {
  bash .ci/ensure-valgrind.sh >&2 || return
  swift build -c release --package-path Benchmarks --product presentation-bench >&2 || return
  printf '%s/presentation-bench\n' "$(swift build -c release --package-path Benchmarks --show-bin-path)"
}
