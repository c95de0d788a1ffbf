#!/usr/bin/env bash
# Type-checks the UIKit faces (#if canImport(UIKit) files) on Linux against .ci/uikit-stub, a
# test-only module `UIKit` that declares the Apple signatures they use, and the AppKit code
# (#if canImport(AppKit) files) against .ci/appkit-stub, a module `AppKit` likewise. With the stubs
# on the import path, `canImport(UIKit)` and `canImport(AppKit)` are true, so the faces compile
# together with the platform-neutral code they drive: a face that stops type-checking fails this step.
#
# 1. the stubs become modules UIKit and AppKit;
# 2. module PresentationModel is built with both visible (so its Platform/ UIView and NSView files count);
# 3. each example target is type-checked, faces included, against all three.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
out="${UIKIT_FACES_DIR:-$repo/.build/uikit-faces}"
rm -rf "$out"
mkdir -p "$out/stub" "$out/appkit-stub" "$out/modules"

strict=(
  -swift-version 6 -warnings-as-errors -parse-as-library
  -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility
)

echo "uikit-faces: stub module UIKit"
swiftc -emit-module -module-name UIKit -parse-as-library -swift-version 6 \
  -emit-module-path "$out/stub/UIKit.swiftmodule" .ci/uikit-stub/UIKit.swift
echo "uikit-faces: stub module AppKit"
swiftc -emit-module -module-name AppKit -parse-as-library -swift-version 6 \
  -emit-module-path "$out/appkit-stub/AppKit.swiftmodule" .ci/appkit-stub/AppKit.swift

mapfile -t core < <(find Sources/PresentationModel -name '*.swift' | LC_ALL=C sort)
platform=(Sources/PresentationModel/Platform/UIView+Fadable.swift Sources/PresentationModel/Platform/NSView+Fadable.swift)
for file in "${platform[@]}"; do
  [[ -f "$file" ]] || { echo "uikit-faces: $file is missing; update this script" >&2; exit 1; }
done
echo "uikit-faces: PresentationModel (${#core[@]} files, with ${platform[*]})"
swiftc -emit-module -module-name PresentationModel -package-name presentationmodel "${strict[@]}" \
  -I "$out/stub" -I "$out/appkit-stub" -emit-module-path "$out/modules/PresentationModel.swiftmodule" "${core[@]}"

faces=0
for dir in Sources/Examples/*/; do
  name="$(basename "$dir")Example"
  mapfile -t sources < <(find "$dir" -name '*.swift' | LC_ALL=C sort)
  ((${#sources[@]} > 0)) || continue
  mapfile -t uikit < <(grep -l 'canImport(UIKit)' "${sources[@]}" || true)
  echo "uikit-faces: $name (${#sources[@]} files, UIKit faces: ${uikit[*]:-none})"
  swiftc -typecheck -module-name "$name" -package-name presentationmodel "${strict[@]}" \
    -I "$out/stub" -I "$out/appkit-stub" -I "$out/modules" "${sources[@]}"
  faces=$((faces + ${#uikit[@]}))
done

if ((faces == 0)); then
  echo "uikit-faces: no file under Sources/Examples is wrapped in #if canImport(UIKit); nothing was checked" >&2
  exit 1
fi
echo "uikit-faces: $faces face file(s) type-check against the stub"
