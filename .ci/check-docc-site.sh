#!/usr/bin/env bash
# Opens the documentation site that .ci/build-docc.sh built in headless Chromium: the landing page,
# each module's page, EVERY article of every catalog (Sources/<Module>/<Module>.docc/**/*.md, the
# guides of Docs/ among them through their links, so an article that the site lacks fails) and one
# symbol page per module must render (heading and window title present) with no console error,
# uncaught exception or failed request, no broken link within the site, no code listing wider than
# the content column and no heading with backticks; the landing page must link to every guide of
# Docs/. Screenshots of every page are kept in .build/docc-screenshots/.
#
# Chromium comes from the Debian packages; this script installs it when it is missing (as root, or
# through sudo). The site is served from 127.0.0.1 by python3's http.server, because DocC's pages
# load their content with JavaScript requests that file:// URLs do not allow.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
site="${DOCC_BUILD_DIR:-$repo/.build/docc}/site"
screenshots="$repo/.build/docc-screenshots"
if [[ ! -f $site/index.html ]]; then
  echo "check-docc-site: no site at $site; run .ci/build-docc.sh first" >&2
  exit 1
fi

chromium="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z $chromium ]]; then
  echo "check-docc-site: installing chromium from the Debian packages"
  sudo=()
  if ((EUID != 0)); then sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null
  chromium="$(command -v chromium)"
fi
echo "check-docc-site: $("$chromium" --version 2>/dev/null || echo chromium)"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
server_log="$(mktemp)"
python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port" >"$server_log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$server_log"' EXIT
for _ in $(seq 50); do
  if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null; then break; fi
  sleep 0.1
done

pages=(
  "documentation/=PresentationModel"
  "documentation/presentationmodel/typednotificationcenter/=TypedNotificationCenter"
  "documentation/presentationmodeldiagnostics/instancebudget/=InstanceBudget"
  "documentation/presentationmodeltesting/manualstepscheduler/=ManualStepScheduler"
)
# Every page a catalog declares: its landing page (`# ``Module```), each documentation extension
# (`# ``Module/Symbol```, the symbol's page) and each article, whose URL is its file name,
# lowercased, under the module's, and whose heading is its first line.
articles=0
for catalog in "$repo"/Sources/*/*.docc; do
  module="$(basename "$catalog" .docc)"
  module_path="documentation/$(tr '[:upper:]' '[:lower:]' <<<"$module")"
  while IFS= read -r -d '' markdown; do
    title="$(head -n 1 "$markdown")"
    if [[ $title == "# \`\`$module\`\`" ]]; then
      pages+=("$module_path/=$module")
      continue
    fi
    if [[ $title == "# \`\`"* ]]; then  # a documentation extension: the symbol's page
      symbol="${title#\# \`\`}"
      symbol="${symbol%\`\`}"
      symbol="${symbol#"$module"/}"
      pages+=("$module_path/$(tr '[:upper:]' '[:lower:]' <<<"$symbol")/=${symbol##*/}")
      continue
    fi
    title="${title#\# }"
    title="${title//\`/}"
    name="$(basename "$markdown" .md | tr '[:upper:]' '[:lower:]')"
    pages+=("$module_path/$name/=$title")
    articles=$((articles + 1))
  done < <(find "$catalog" -name '*.md' -print0 | LC_ALL=C sort -z)
done
echo "check-docc-site: ${#pages[@]} pages, $articles of them the catalogs' articles"

# The landing page must link to Getting started and to every guide of Docs/.
guides="$(find "$repo/Docs" -name '*.md' -printf '%f\n' | LC_ALL=C sort | sed -E 's/\.md$//' \
  | tr '[:upper:]' '[:lower:]' | sed 's|^|documentation/presentationmodel/|' | paste -sd, -)"
rm -rf "$screenshots"
python3 "$repo/.ci/docc-browser-check.py" "$chromium" "http://127.0.0.1:$port" "$screenshots" \
  --links "documentation/=$guides" "${pages[@]}"
echo "check-docc-site: every page rendered without a console error, a broken link, a listing wider than the content"
echo "  column or a heading with backticks; screenshots in $screenshots, among them the landing page"
echo "  (documentation.png), Getting started (documentation-presentationmodel-gettingstarted*.png) and Leak"
echo "  testing (documentation-presentationmodel-leaktesting*.png)"
