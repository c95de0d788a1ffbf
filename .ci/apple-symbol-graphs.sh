#!/usr/bin/env bash
# Emits the symbol graphs of PresentationModel as an Apple platform compiles it, for
# .ci/api-check.sh, and prints the folder that holds them: one subfolder per platform, `UIKit`
# (UIKit and SwiftUI importable: iOS, tvOS, visionOS, Mac Catalyst) and `AppKit` (AppKit and
# SwiftUI: macOS), each with a `graphs` folder. On Linux `canImport(UIKit)`, `canImport(AppKit)` and
# `canImport(SwiftUI)` are false, so the graphs of .ci/symbol-graphs.sh lack the public declarations
# of Sources/PresentationModel/Platform/ (FadableView, onNotification).
#
# How: as .ci/check-uikit-faces.sh type-checks those files, against the test-only stubs
# .ci/uikit-stub, .ci/appkit-stub and .ci/swiftui-stub, which declare the Apple signatures they use.
# The module's files, its dependencies and its Swift settings come from the package (`swift package
# describe`, `dump-package`, read by .ci/package-query.py). A graph shows the declarations as the
# stubs spell the Apple types (`UIView`, `SwiftUI.View`), which is what the record needs: what this
# package declares, not what the frameworks declare.
#
# Only PresentationModel has such files; the script fails if a file of another library module
# starts to use `canImport(UIKit)`, `canImport(AppKit)` or `canImport(SwiftUI)`, so that the record
# cannot miss it silently.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/.ci/lib.sh"
out="$repo/.build/apple-symbol-graphs"
cd "$repo"
describe_package "$out"

for library in PresentationModelDiagnostics PresentationModelTesting; do
  mapfile -t sources < <(package_query "$out" sources "$library")
  if grep -lE 'canImport\((UIKit|AppKit|SwiftUI)\)' "${sources[@]}" >&2; then
    echo "apple-symbol-graphs: $library has Apple-only files (above); build its graphs here too" >&2
    exit 1
  fi
done

package_name="$(package_query "$out" name)"
mapfile -t core < <(package_query "$out" sources PresentationModel | sed "s|^|$repo/|")
mapfile -t core_flags < <(package_query "$out" flags PresentationModel | sed '/^$/d')

# The stubs, one module each.
for stub in UIKit AppKit SwiftUI; do
  mkdir -p "$out/stubs/$stub"
  swiftc -emit-module -module-name "$stub" -parse-as-library -swift-version 6 \
    -emit-module-path "$out/stubs/$stub/$stub.swiftmodule" ".ci/$(tr '[:upper:]' '[:lower:]' <<<"$stub")-stub/$stub.swift" >&2
done

# PresentationModel's own dependencies (internal targets of this package), which no stub changes.
mkdir -p "$out/modules"
while read -r dependency; do
  mapfile -t dependency_sources < <(package_query "$out" sources "$dependency")
  mapfile -t dependency_flags < <(package_query "$out" flags "$dependency" | sed '/^$/d')
  swiftc -emit-module -module-name "$dependency" -package-name "$package_name" -parse-as-library \
    "${dependency_flags[@]}" -emit-module-path "$out/modules/$dependency.swiftmodule" "${dependency_sources[@]}" >&2
done < <(package_query "$out" dependencies PresentationModel)

for platform in UIKit AppKit; do
  mkdir -p "$out/$platform/graphs"
  swiftc -emit-module -module-name PresentationModel -package-name "$package_name" -parse-as-library \
    "${core_flags[@]}" -I "$out/stubs/$platform" -I "$out/stubs/SwiftUI" -I "$out/modules" \
    -emit-module-path "$out/$platform/PresentationModel.swiftmodule" \
    -emit-symbol-graph -emit-symbol-graph-dir "$out/$platform/graphs" -emit-extension-block-symbols "${core[@]}" >&2
done
echo "$out"
