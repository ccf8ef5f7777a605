#!/usr/bin/env sh
# Restores a backup made by deploy/backup.sh (docs/deploy.md, "Backups and restore"). Stop every server first.
#   deploy/restore.sh <backup-file>
# PostgreSQL (DATABASE_URL set): into that database, which must exist and be empty (createdb it first); the next
# start applies any migration the backup lacks. PGlite: into DATA_DIR (default ./data), which must not exist.
set -eu
# DATABASE_URL and DATA_DIR: the environment, else .env.local, else .env.
. "$(dirname "$0")/env-files.sh"
in="${1:?usage: deploy/restore.sh <backup-file>}"
if [ -n "${DATABASE_URL:-}" ]; then
  pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" "$in"
else
  dir="${DATA_DIR:-./data}"
  [ ! -e "$dir" ] || { echo "DATA_DIR $dir exists; move it away first" >&2; exit 1; }
  mkdir -p "$dir"
  tar -xzf "$in" -C "$dir"
fi
echo "Restored from $in"
