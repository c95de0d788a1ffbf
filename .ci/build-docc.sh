#!/usr/bin/env bash
# Builds the documentation site: the DocC catalog of each library module (Sources/<Module>/<Module>.docc)
# with the toolchain's docc, merged into one archive that any static file server can host, whose
# landing page shows the PresentationModel catalog's introduction and articles.
# Any docc warning (a broken symbol link, a missing article, an undocumented parameter in a
# `- Parameters:` list) fails CI.
#
# Output: .build/docc/site (or $DOCC_BUILD_DIR/site). To look at it:
#   python3 -m http.server --bind 127.0.0.1 --directory .build/docc/site 8000
#   then open http://127.0.0.1:8000/documentation/
# (.ci/check-docc-site.sh does that in headless Chromium.)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
out="${DOCC_BUILD_DIR:-$repo/.build/docc}"
modules=(PresentationModel PresentationModelDiagnostics PresentationModelTesting)
# The Swift Package Index builds the targets .spi.yml names: the same three, so both sites agree.
spi_targets="$(grep -oE 'documentation_targets: \[[^]]*\]' .spi.yml | sed -E 's/.*\[(.*)\]/\1/; s/,/ /g' | xargs || true)"
if [[ $spi_targets != "${modules[*]}" ]]; then
  echo "build-docc: .spi.yml's documentation_targets are '$spi_targets', expected '${modules[*]}'" >&2
  exit 1
fi
# The guides live in Docs/ (the repository's layout: Package.swift, Sources, Tests, Docs) and are
# articles of the PresentationModel catalog through symbolic links: Docs/X.md is linked from
# Sources/PresentationModel/PresentationModel.docc/Docs/X.md (docc reads a linked file, not a linked
# folder, so each file has its link). One source for GitHub, this site and the Swift Package Index.
catalog_docs=Sources/PresentationModel/PresentationModel.docc/Docs
layout_errors=()
while IFS= read -r guide; do
  link="$catalog_docs/${guide#Docs/}"
  if [[ ! -L $link || "$(readlink -f "$link")" != "$(readlink -f "$guide")" ]]; then
    target="$(realpath --relative-to="$(dirname "$link")" "$guide")"
    layout_errors+=("$guide is not linked from the catalog (missing from the site): ln -s $target $link")
  fi
done < <(find Docs -name '*.md' 2>/dev/null | LC_ALL=C sort)
while IFS= read -r link; do
  if [[ ! -e $link ]]; then
    layout_errors+=("$link is a link to $(readlink "$link"), which does not exist")
  elif [[ "$(readlink -f "$link")" != "$(readlink -f "$repo")/Docs/"* ]]; then
    layout_errors+=("$link links outside Docs/: $(readlink -f "$link")")
  fi
done < <(find Sources -path '*.docc/*' -type l | LC_ALL=C sort)
# A catalog's own files are its landing page and documentation extensions (`# ``Symbol```); an
# article written there would be missing from Docs/.
while IFS= read -r article; do
  if [[ "$(head -n 1 "$article")" != "# \`\`"* ]]; then
    layout_errors+=("$article is a guide inside a catalog: git mv it to Docs/ and link it from $catalog_docs")
  fi
done < <(find Sources -path '*.docc/*' -type f -name '*.md' | LC_ALL=C sort)
if ((${#layout_errors[@]} > 0)); then
  echo "build-docc: the guides and the catalogs disagree:" >&2
  printf '  %s\n' "${layout_errors[@]}" >&2
  exit 1
fi
# Listing lines of at most 90 columns (the site's content column; .ci/docc-browser-check.py measures
# the rendering) and headings without backticks (the site shows them literally).
mapfile -t pages < <({ find Docs -name '*.md'; find Sources -path '*.docc/*' -type f -name '*.md'; } | LC_ALL=C sort)
python3 .ci/check-docs-source.py "${pages[@]}"
# A Markdown link to a file (`[Performance](Performance.md)`) or to GitHub's id of a heading
# (`[x](#some-heading)`) works on GitHub but is dead in the site, and docc does not warn about it:
# write <doc:Performance> or <doc:Performance#Some-heading>.
file_links="$(grep -rnE '\]\(([^)#:]*\.md(#[^)]*)?|#[^)]*)\)' Docs Sources --include='*.md' || true)"
if [[ -n $file_links ]]; then
  echo "build-docc: links to Markdown files or GitHub heading ids, dead in the site; write <doc:Name> (or <doc:Name#Heading>):" >&2
  sed 's/^/  /' <<<"$file_links" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"

docc="$(command -v docc || xcrun --find docc 2>/dev/null || true)"
if [[ -z $docc ]]; then
  echo "build-docc: no docc in the toolchain" >&2
  exit 1
fi

echo "build-docc: symbol graphs of ${modules[*]}"
graphs="$(bash .ci/symbol-graphs.sh)"

fail() {  # fail LOG STATUS: print the warnings and the log, then stop
  echo "build-docc: FAILED (docc exit status $2)" >&2
  grep -E '^(error|warning):' "$1" | sed 's/^/  /' >&2 || true
  cat "$1" >&2
  exit 1
}

archives=()
for module in "${modules[@]}"; do
  echo "build-docc: docc convert $module"
  # Each module documents only what it declares, not what it re-exports from the others.
  python3 .ci/symbol-graph-tool.py own "$module" "$graphs" "$out/symbol-graphs/$module"
  log="$out/$module.log"
  status=0
  "$docc" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.presentationmodel.$module" \
    --transform-for-static-hosting \
    --output-dir "$out/$module.doccarchive" >"$log" 2>&1 || status=$?
  if ((status != 0)) || grep -qE '^(error|warning):' "$log"; then fail "$log" "$status"; fi
  archives+=("$out/$module.doccarchive")
done

echo "build-docc: docc merge"
log="$out/merge.log"
status=0
"$docc" merge "${archives[@]}" --synthesized-landing-page-name PresentationModel \
  --synthesized-landing-page-kind Package --output-path "$out/site" >"$log" 2>&1 || status=$?
if ((status != 0)) || grep -qE '^(error|warning):' "$log"; then fail "$log" "$status"; fi
# The merged landing page, /documentation/, gets the main module's introduction and its articles.
python3 .ci/docc-landing-page.py "$out/site" documentation/presentationmodel
# DocC's pages ask the server for /theme-settings.json; a catalog without custom theming has none,
# and the 404 is a console error on every page. An empty theme keeps DocC's defaults.
printf '{"meta": {}, "theme": {}, "features": {}}\n' >"$out/site/theme-settings.json"
echo "build-docc: built $out/site (serve it with: python3 -m http.server --bind 127.0.0.1 --directory $out/site)"
