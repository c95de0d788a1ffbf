#!/usr/bin/env bash
# Emits the symbol graphs of the three library modules, for .ci/api-check.sh and .ci/build-docc.sh,
# and prints the folder that holds them. One `swift build` of PresentationModelTesting builds all
# three modules.
#
# The build folder and the graphs are kept between runs, side by side: the compiler writes a
# module's graphs only when it compiles that module, so a graph left from the last run is current
# exactly when its module was not rebuilt. (Its own build folder: the symbol-graph flags would
# otherwise invalidate the normal build.) Readers pick their modules' files by name:
# MODULE.symbols.json and MODULE@OtherModule.symbols.json for its extensions of other modules.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$repo/.build/symbol-graph-build"
graphs="$scratch/graphs"
modules=(PresentationModel PresentationModelDiagnostics PresentationModelTesting)

for module in "${modules[@]}"; do
  if [[ ! -f "$graphs/$module.symbols.json" ]]; then
    rm -rf "$scratch"  # a graph is missing: rebuild everything so every graph is written again
    break
  fi
done
mkdir -p "$graphs"
swift build --package-path "$repo" --target PresentationModelTesting --scratch-path "$scratch" \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" -Xswiftc -emit-extension-block-symbols >&2
echo "$graphs"
