#!/usr/bin/env bash
# Type-checks the UIKit faces (#if canImport(UIKit) files) on Linux against .ci/uikit-stub, a
# test-only module `UIKit` that declares the Apple signatures they use, the AppKit code
# (#if canImport(AppKit) files) against .ci/appkit-stub, a module `AppKit` likewise, and the
# SwiftUI view modifier (#if canImport(SwiftUI)) against .ci/swiftui-stub. With a stub
# on the import path, `canImport(UIKit)` (or `canImport(AppKit)`) is true, so the faces compile
# together with the platform-neutral code they drive: a face that stops type-checking fails this step.
#
# What is compiled, and how, comes from the package, not from a list here: the files are the
# sources of PresentationModel and of each target under Sources/Examples (`swift package describe`),
# and each target's language mode and upcoming features are those of Package.swift (`swift package
# dump-package`); this check adds only -warnings-as-errors, as CI's build does.
#
# For each platform (UIKit, then AppKit; no Apple platform has both, Mac Catalyst aside; then
# SwiftUI, on its own, since its file uses no UIKit or AppKit):
# 1. the stub becomes module UIKit (or AppKit, SwiftUI);
# 2. module PresentationModel is built with it visible (so its Platform/ files count);
# 3. each example target is type-checked, faces included, against both;
# 4. IntegrationTests/ViewSubclasses/ViewSubclasses.swift, a module of an app's own, is
#    type-checked against both: a view subclass that declares its own `opacity` and `dispose()`
#    must still compile (the package adds no member to UIView or NSView). For SwiftUI, the app's
#    module is IntegrationTests/SwiftUIViews/SwiftUIViews.swift: views using `onNotification`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
. .ci/lib.sh
out="${UIKIT_FACES_DIR:-$repo/.build/uikit-faces}"
describe_package "$out"
# package QUERY [TARGET]: what the package says, one item a line (.ci/package-query.py).
package() { package_query "$out" "$@"; }

package_name="$(package name)"
mapfile -t core < <(package sources PresentationModel)
mapfile -t core_flags < <(package flags PresentationModel | sed '/^$/d')
mapfile -t examples < <(package targets-under Sources/Examples)
((${#examples[@]} > 0)) || { echo "uikit-faces: no target under Sources/Examples" >&2; exit 1; }
for example in "${examples[@]}"; do
  while read -r dependency; do
    [[ $dependency == PresentationModel ]] && continue
    echo "uikit-faces: $example depends on $dependency; this check builds PresentationModel only" >&2
    exit 1
  done < <(package dependencies "$example")
done
echo "uikit-faces: PresentationModel flags from Package.swift: ${core_flags[*]}"

uikit_faces=0
for platform in UIKit AppKit SwiftUI; do
  stub_source=".ci/$(tr '[:upper:]' '[:lower:]' <<<"$platform")-stub/$platform.swift"
  stub="$out/$platform/stub"
  modules="$out/$platform/modules"
  mkdir -p "$stub" "$modules"
  echo "uikit-faces: stub module $platform ($stub_source)"
  swiftc -emit-module -module-name "$platform" -parse-as-library -swift-version 6 \
    -emit-module-path "$stub/$platform.swiftmodule" "$stub_source"

  mapfile -t platform_files < <(grep -l "canImport($platform)" "${core[@]}" || true)
  if ((${#platform_files[@]} == 0)); then
    echo "uikit-faces: no PresentationModel file is wrapped in #if canImport($platform); nothing to check" >&2
    exit 1
  fi
  # The core's own dependencies (internal targets of this package) first, so that it can import them.
  while read -r dependency; do
    mapfile -t dependency_sources < <(package sources "$dependency")
    mapfile -t dependency_flags < <(package flags "$dependency" | sed '/^$/d')
    echo "uikit-faces: [$platform] $dependency (${#dependency_sources[@]} files), which PresentationModel imports"
    swiftc -emit-module -module-name "$dependency" -package-name "$package_name" -parse-as-library \
      -warnings-as-errors "${dependency_flags[@]}" \
      -emit-module-path "$modules/$dependency.swiftmodule" "${dependency_sources[@]}"
  done < <(package dependencies PresentationModel)
  echo "uikit-faces: [$platform] PresentationModel (${#core[@]} files, with ${platform_files[*]})"
  swiftc -emit-module -module-name PresentationModel -package-name "$package_name" -parse-as-library \
    -warnings-as-errors "${core_flags[@]}" -I "$stub" -I "$modules" \
    -emit-module-path "$modules/PresentationModel.swiftmodule" "${core[@]}"

  for example in "${examples[@]}"; do
    mapfile -t sources < <(package sources "$example")
    mapfile -t flags < <(package flags "$example" | sed '/^$/d')
    mapfile -t faces < <(grep -l "canImport($platform)" "${sources[@]}" || true)
    echo "uikit-faces: [$platform] $example (${#sources[@]} files, $platform faces: ${faces[*]:-none})"
    swiftc -typecheck -module-name "$example" -package-name "$package_name" -parse-as-library \
      -warnings-as-errors "${flags[@]}" -I "$stub" -I "$modules" "${sources[@]}"
    [[ $platform == UIKit ]] && uikit_faces=$((uikit_faces + ${#faces[@]}))
  done

  if [[ $platform == SwiftUI ]]; then
    app=IntegrationTests/SwiftUIViews/SwiftUIViews.swift
    app_module=SwiftUIViews
  else
    app=IntegrationTests/ViewSubclasses/ViewSubclasses.swift
    app_module=ViewSubclasses
  fi
  echo "uikit-faces: [$platform] an app's module: $app"
  swiftc -typecheck -module-name "$app_module" -parse-as-library -swift-version 6 -warnings-as-errors \
    -I "$stub" -I "$modules" "$app"
done

if ((uikit_faces == 0)); then
  echo "uikit-faces: no file under Sources/Examples is wrapped in #if canImport(UIKit); nothing was checked" >&2
  exit 1
fi
echo "uikit-faces: $uikit_faces UIKit face file(s) type-check against the stub; PresentationModel against the UIKit, AppKit and SwiftUI stubs"
