#!/usr/bin/env bash
# Installs valgrind with apt-get when it is missing (as root, or through sudo). Sourced or run by the
# CI steps that need it: the benchmark's allocation count and the demo's leak check.
set -euo pipefail
if ! command -v valgrind >/dev/null 2>&1; then
  printf '\n=== installing valgrind\n'
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends valgrind
fi
