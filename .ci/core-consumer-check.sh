#!/usr/bin/env bash
# Builds and runs an outside package that depends on this one by path and uses only public names:
# owner-bound observers, a fade on virtual time, main-actor notifications with a non-Sendable owner,
# payload and handler state (issue 11), and a Foundation notification observed with an owner.
# A package's identity is the last component of its path, so the consumer is laid out beside a
# link named PresentationModel, whatever this checkout's folder is called.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/presentationmodel-core-consumer"
mkdir -p "$work"
ln -sfn "$root" "$work/PresentationModel"
rm -rf "$work/CoreConsumer/Sources"
mkdir -p "$work/CoreConsumer"
cp -R "$root/IntegrationTests/CoreConsumer/Package.swift" "$root/IntegrationTests/CoreConsumer/Sources" "$work/CoreConsumer/"
cd "$work/CoreConsumer"
swift run core-consumer
