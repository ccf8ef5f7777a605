# Sourced by .ci/run. phase <name> <command…>: runs the command, adds "<name> <seconds>" to the array `phases`,
# and answers the command's exit status. Its own status, not that of the bookkeeping after it: called as
# `phase … || status=$?`, bash's `set -e` does not apply inside, and a failed suite passed for green (3 Dec 2026;
# apps/server/test/ci-phase.test.ts).
phase() {
  local name="$1" start status=0
  shift
  start=$(date +%s)
  "$@" || status=$?
  phases+=("$name $(($(date +%s) - start))")
  return "$status"
}
