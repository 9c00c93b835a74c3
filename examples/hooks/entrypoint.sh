#!/bin/sh
# Container entrypoint: bring the store up to this image's version with milepost, then replace this
# shell with the service (exec), so the service is PID 1 and gets the container's signals directly.
#
#   ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
#   CMD ["/app/bin/titi", "serve"]
#   ENV MILEPOST_TO=2.7.0 MILEPOST_MANIFEST=/app/milepost.yaml MILEPOST_STORE=/var/lib/titi/milepost
#   ENV MILEPOST_EXISTING_STORE=1   # a store that stores nothing is refused (69), not started anew
#
# If milepost fails (a step failed: 1, an interrupted step needs `milepost resolve`: 2, a refused
# downgrade: 3, a bad manifest: 65, the lock not acquired: 75, ...) the container exits with that
# code and the service never starts on a half-upgraded store.
set -eu

: "${MILEPOST_TO:?set MILEPOST_TO to the version this image ships}"

# While milepost runs, this shell is PID 1, and PID 1 ignores signals it has no handler for: forward
# SIGTERM/SIGINT (docker stop, Kubernetes) so milepost can stop its step cleanly and journal it.
milepost run --to "$MILEPOST_TO" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM
trap 'kill -INT "$child" 2>/dev/null' INT
# `wait` returns early when a trapped signal arrives; wait again until milepost has really exited.
while :; do
    status=0
    wait "$child" || status=$?
    kill -0 "$child" 2>/dev/null || break
done
trap - TERM INT
[ "$status" -eq 0 ] || exit "$status"

exec "$@"
