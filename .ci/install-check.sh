#!/usr/bin/env bash
# Proves Getting started (Docs/GettingStarted.md) works as written: builds a new
# package whose Package.swift is the guide's manifest, with only the dependency URL swapped for a
# local git repository made from this checkout, and whose files are the guide's step listings, each
# written to the path its first line names (`// Sources/FirstSteps/main.swift`); then runs the
# program (`swift run FirstSteps`) and the tests (`swift test`). It builds and tests the same
# package again with the guide's local-path dependency, `.package(path: "../PresentationModel")`,
# checks that a clone in a folder of another name gives the `unknown package` error the guide
# quotes, and that the guide's `.package(name:path:)` form resolves it.
#
# The local repository has what a published one would have: a `main` branch and a tag for the
# newest version in CHANGELOG.md, so the snippet may say `branch: "main"` or a version requirement.
# It is made from the working tree (tracked files and new, not ignored ones), so uncommitted changes
# are checked too.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
guide="$root/Docs/GettingStarted.md"
work="${INSTALL_CHECK_DIR:-$root/.build/install-check}"
remote="$work/PresentationModel"  # the last path component is the package identity the snippet names
app="$work/ByURL/MyApp"  # the path form below needs MyApp beside PresentationModel

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
# The guide's two local forms, each the only line of its block.
path_line="$(grep -oE '^\.package\(path: "\.\./PresentationModel"\),?$' "$guide" | head -n 1 || true)"
named_line="$(grep -oE '^\.package\(name: "PresentationModel", path: "\.\./[A-Za-z0-9_-]+"\),?$' "$guide" | head -n 1 || true)"
if [[ -z $path_line || -z $named_line ]]; then
  echo "install-check: the guide should show .package(path: \"../PresentationModel\") and" \
    ".package(name: \"PresentationModel\", path: \"../<folder>\"); found '${path_line}' and '${named_line}'" >&2
  exit 1
fi
other_folder="$(sed -E 's|.*path: "\.\./([^"]+)".*|\1|' <<<"$named_line")"

version="$(grep -oE '^## \[[0-9]+\.[0-9]+\.[0-9]+\]' "$root/CHANGELOG.md" | head -n 1 | tr -d '#[] ')"
echo "install-check: a local repository of this checkout, branch main, tag ${version:-none}"
rm -rf "$work"
mkdir -p "$remote"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$remote"
(
  cd "$remote"
  git init -q -b main
  git add -A
  git -c user.name=install-check -c user.email=install-check@localhost commit -q -m "snapshot for install-check"
  if [[ -n $version ]]; then git tag "$version"; fi
)

# make_app DIR DEPENDENCY-LINE: the guide's package in DIR, its dependency line replaced.
make_app() {
  local dir=$1 dependency=$2
  rm -rf "$dir"
  mkdir -p "$dir"
  awk -v dependency="${dependency%,}" '
    /^[ \t]*\.package\(url: "[^"]+"/ { match($0, /^[ \t]*/); rest = $0; sub(/^[ \t]*\.package\([^)]*\)/, "", rest); print substr($0, 1, RLENGTH) dependency rest; next }
    { print }
  ' <<<"$manifest" >"$dir/Package.swift"
  # Each step listing whose first line names its file.
  awk -v out="$dir" '
    /^```swift[ \t]*$/ { inside = 1; first = 1; file = ""; next }
    inside && /^```[ \t]*$/ { if (file != "") close(out "/" file); inside = 0; next }
    inside && first { first = 0; if (match($0, /^\/\/ (Sources|Tests)\/[A-Za-z0-9_\/.-]+\.swift$/)) { file = substr($0, 4); system("mkdir -p \"$(dirname \"" out "/" file "\")\""); files++ } }
    inside && file != "" { print > (out "/" file) }
    END { if (files == 0) exit 1 }
  ' "$guide"
}

# run_app DIR: swift run FirstSteps and swift test in DIR, both must succeed as the guide says.
run_app() {
  local dir=$1 log="$1.log"
  echo "install-check: swift run FirstSteps and swift test in $dir"
  if ! (cd "$dir" && swift run FirstSteps && swift test) >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-check: FAILED: the package made from Getting started did not build, run or pass" >&2
    exit 1
  fi
  if ! grep -q 'node 7 is gone' "$log" || ! grep -qE 'Test run with [0-9]+ tests? .*passed' "$log"; then
    cat "$log" >&2
    echo "install-check: FAILED: expected FirstSteps to print 'node 7 is gone' and the tests to pass" >&2
    exit 1
  fi
  grep -E 'Test run with' "$log" || true
}

make_app "$app" ".package(url: \"$remote\", branch: \"main\")"
echo "install-check: Package.swift, from the guide (URL pointed at the local repository):"
sed 's/^/  /' "$app/Package.swift"
echo "install-check: files from the guide's steps:"
(cd "$app" && find Sources Tests -name '*.swift' | LC_ALL=C sort | sed 's/^/  /')
if [[ ! -f $app/Sources/FirstSteps/main.swift || -z "$(ls "$app/Tests/MyFeatureTests/" 2>/dev/null)" ]]; then
  echo "install-check: the guide's steps should name Sources/FirstSteps/main.swift and a file in Tests/MyFeatureTests" >&2
  exit 1
fi
run_app "$app"

# The local-path form: the app beside a folder named PresentationModel, as the guide says.
make_app "$work/MyApp" "$path_line"
run_app "$work/MyApp"

# A clone in a folder of another name: the plain path form fails with the error the guide quotes,
# and the guide's named form resolves.
wrong="$work/WrongName/MyApp"
mkdir -p "$work/WrongName"
ln -sfn "$remote" "$work/WrongName/$other_folder"
make_app "$wrong" ".package(path: \"../$other_folder\")"
if (cd "$wrong" && swift package resolve) >"$wrong.log" 2>&1 || ! grep -q "unknown package 'PresentationModel'" "$wrong.log"; then
  cat "$wrong.log" >&2
  echo "install-check: FAILED: .package(path: \"../$other_folder\") should fail with unknown package 'PresentationModel'" >&2
  exit 1
fi
make_app "$wrong" "$named_line"
if ! (cd "$wrong" && swift package resolve && swift package show-dependencies) >"$wrong.log" 2>&1; then
  cat "$wrong.log" >&2
  echo "install-check: FAILED: $named_line did not resolve" >&2
  exit 1
fi
echo "install-check: Getting started works as written, with its URL and with a local path"
