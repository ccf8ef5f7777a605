#!/usr/bin/env sh
# Backs VRCLink's data up (docs/deploy.md, "Backups and restore").
#   deploy/backup.sh <backup-file>
# PostgreSQL (DATABASE_URL set): pg_dump's custom format, taken while the servers run (a consistent snapshot).
# PGlite (no DATABASE_URL): a tar of DATA_DIR (default ./data); stop every server process using it first, since
# the embedded database's files are consistent only while nobody writes them.
set -eu
# Like the server: a variable the environment does not set is read from .env.local, then .env (working directory).
from_env_files() {
  for f in .env.local .env; do
    [ -f "$f" ] || continue
    v=$(sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*//p" "$f" | tail -n 1 | sed -e 's/^"\(.*\)"$/\1/' -e "s/^'\(.*\)'$/\1/")
    [ -n "$v" ] && { printf '%s' "$v"; return 0; }
  done
  return 0
}
DATABASE_URL="${DATABASE_URL-$(from_env_files DATABASE_URL)}"
DATA_DIR="${DATA_DIR-$(from_env_files DATA_DIR)}"
out="${1:?usage: deploy/backup.sh <backup-file>}"
if [ -n "${DATABASE_URL:-}" ]; then
  pg_dump --format=custom --no-owner --file="$out" "$DATABASE_URL"
else
  dir="${DATA_DIR:-./data}"
  [ -d "$dir" ] || { echo "DATA_DIR $dir does not exist" >&2; exit 1; }
  tar -czf "$out" -C "$dir" .
fi
echo "Backed up to $out"
