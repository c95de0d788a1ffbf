#!/usr/bin/env bash
# Builds and runs an outside package that depends on this one by path and uses only public names:
# owner-bound observers, a fade on virtual time, main-actor notifications with a non-Sendable owner,
# payload and handler state (issue 11), and a Foundation notification observed with an owner.
# It is laid out beside a link named PresentationModel (lay_out_consumer in .ci/lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
consumer="$(lay_out_consumer "$(checkout_tmp presentationmodel-core-consumer)" CoreConsumer)"
cd "$consumer"
swift run core-consumer
