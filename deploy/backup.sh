#!/usr/bin/env sh
# Backs VRCLink's data up (docs/deploy.md, "Backups and restore").
#   deploy/backup.sh <backup-file>
# PostgreSQL (DATABASE_URL set): pg_dump's custom format, taken while the servers run (a consistent snapshot).
# PGlite (no DATABASE_URL): a tar of DATA_DIR (default ./data); stop every server process using it first, since
# the embedded database's files are consistent only while nobody writes them.
set -eu
# DATABASE_URL and DATA_DIR: the environment, else .env.local, else .env.
. "$(dirname "$0")/env-files.sh"
out="${1:?usage: deploy/backup.sh <backup-file>}"
if [ -n "${DATABASE_URL:-}" ]; then
  pg_dump --format=custom --no-owner --file="$out" "$DATABASE_URL"
else
  dir="${DATA_DIR:-./data}"
  [ -d "$dir" ] || { echo "DATA_DIR $dir does not exist" >&2; exit 1; }
  tar -czf "$out" -C "$dir" .
fi
echo "Backed up to $out"
