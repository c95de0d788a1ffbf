#!/usr/bin/env bash
# Proves the install snippet of Getting started (PresentationModel.docc/GettingStarted.md) works as
# pasted: builds a new package whose
# Package.swift is that snippet's text, with only the dependency URL swapped for a local git
# repository made from this checkout, and runs one test that uses both products.
#
# The local repository has what a published one would have: a `main` branch and a tag for the
# newest version in CHANGELOG.md, so the snippet may say `branch: "main"` or a version requirement.
# It is made from the working tree (tracked files and new, not ignored ones), so uncommitted changes
# are checked too.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
guide="$root/Sources/PresentationModel/PresentationModel.docc/GettingStarted.md"
work="${INSTALL_CHECK_DIR:-$root/.build/install-check}"
remote="$work/PresentationModel"  # the last path component is the package identity the snippet names
app="$work/MyApp"

# The first ```swift block of the guide that is a whole manifest.
manifest="$(awk '
  /^```swift[ \t]*$/ { inside = 1; body = ""; next }
  inside && /^```[ \t]*$/ { if (body ~ /^\/\/ swift-tools-version:/) { printf "%s", body; exit } inside = 0; next }
  inside { body = body $0 "\n" }
' "$guide")"
if [[ -z $manifest ]]; then
  echo "install-check: no \`\`\`swift block starting with '// swift-tools-version:' in $guide" >&2
  exit 1
fi
urls="$(grep -cE '\.package\(url: "[^"]+"' <<<"$manifest" || true)"
if [[ $urls != 1 ]]; then
  echo "install-check: the snippet should have exactly one .package(url: ...) line, found $urls" >&2
  exit 1
fi
for target in MyFeature MyFeatureTests; do
  if ! grep -q "name: \"$target\"" <<<"$manifest"; then
    echo "install-check: the snippet no longer declares target \"$target\"; update this script's sources" >&2
    exit 1
  fi
done

version="$(grep -oE '^## \[[0-9]+\.[0-9]+\.[0-9]+\]' "$root/CHANGELOG.md" | head -n 1 | tr -d '#[] ')"
echo "install-check: a local repository of this checkout, branch main, tag ${version:-none}"
rm -rf "$work"
mkdir -p "$remote" "$app/Sources/MyFeature" "$app/Tests/MyFeatureTests"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$remote"
(
  cd "$remote"
  git init -q -b main
  git add -A
  git -c user.name=install-check -c user.email=install-check@localhost commit -q -m "snapshot for install-check"
  if [[ -n $version ]]; then git tag "$version"; fi
)

# Only the URL changes.
sed -E "s|\.package\(url: \"[^\"]+\"|.package(url: \"$remote\"|" <<<"$manifest" >"$app/Package.swift"
echo "install-check: Package.swift, from the snippet:"
sed 's/^/  /' "$app/Package.swift"

cat >"$app/Sources/MyFeature/Outline.swift" <<'SWIFT'
public import PresentationModel

public struct ItemDeleted: TypedNotification {
  public let id: Int
  public init(id: Int) { self.id = id }
}

/// A row that forgets itself when its item is deleted.
public final class OutlineRow: Sendable {
  public let id: Int

  public init(id: Int, center: TypedNotificationCenter) {
    self.id = id
    center.observe(ItemDeleted.self, owner: self) { _, _ in }
  }
}
SWIFT

cat >"$app/Tests/MyFeatureTests/OutlineRowTests.swift" <<'SWIFT'
import MyFeature
import PresentationModelTesting
import Testing

@Test(.detectsLeaks) func aDeletedRowLeavesNothingBehind() async {
  let center = TypedNotificationCenter()
  do {
    let row = OutlineRow(id: 1, center: center)
    trackForLeaks(row)
    center.post(ItemDeleted(id: row.id))
    #expect(center.observerCount(for: ItemDeleted.self) == 1)
  }
  await expectNoObservers(in: center)
}
SWIFT

log="$work/test.log"
echo "install-check: swift test in $app"
if ! (cd "$app" && swift test) >"$log" 2>&1; then
  cat "$log" >&2
  echo "install-check: FAILED: the package made from the GettingStarted snippet did not build or pass" >&2
  exit 1
fi
if ! grep -q 'Test run with 1 test' "$log" || ! grep -q 'passed' "$log"; then
  cat "$log" >&2
  echo "install-check: FAILED: expected one passing test" >&2
  exit 1
fi
grep -E 'Test run with' "$log" || true
echo "install-check: the snippet resolves and its test passes"
