#!/usr/bin/env bash
# Builds the DocC catalog Sources/PresentationModel/PresentationModel.docc with the toolchain's docc:
# symbol graphs from `swift build`, then `docc convert`; any warning (a broken symbol link, a missing
# article, an undocumented parameter in a `- Parameters:` list) fails CI.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
out="${DOCC_BUILD_DIR:-$repo/.build/docc}"
graphs="$out/symbol-graphs"
rm -rf "$out"
mkdir -p "$graphs"

docc="$(command -v docc || xcrun --find docc 2>/dev/null || true)"
if [[ -z $docc ]]; then
  echo "build-docc: no docc in the toolchain" >&2
  exit 1
fi

echo "build-docc: symbol graphs of PresentationModel"
# A separate build directory: the symbol-graph flags would otherwise invalidate the normal build.
swift build --target PresentationModel --scratch-path "$out/build" \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
# Keep only this module's graphs (and its extensions of others), not its dependencies'.
find "$graphs" -name '*.symbols.json' ! -name 'PresentationModel.symbols.json' ! -name 'PresentationModel@*.symbols.json' -delete

echo "build-docc: docc convert"
log="$out/docc.log"
status=0
"$docc" convert Sources/PresentationModel/PresentationModel.docc \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name PresentationModel \
  --fallback-bundle-identifier org.presentationmodel.PresentationModel \
  --output-dir "$out/PresentationModel.doccarchive" >"$log" 2>&1 || status=$?
# Every warning fails the build: a broken symbol link, a missing article, a bad topic group, a
# parameter left out of a `- Parameters:` list.
mapfile -t failures < <(grep -E '^(error|warning):' "$log" || true)
if ((status != 0 || ${#failures[@]} > 0)); then
  echo "build-docc: FAILED (docc exit status $status)" >&2
  printf '  %s\n' "${failures[@]}" >&2
  cat "$log" >&2
  exit 1
fi
echo "build-docc: built $out/PresentationModel.doccarchive"
