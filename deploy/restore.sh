#!/usr/bin/env sh
# Restores a backup made by deploy/backup.sh (docs/deploy.md, "Backups and restore"). Stop every server first.
#   deploy/restore.sh <backup-file>
# PostgreSQL (DATABASE_URL set): into that database, which must exist and be empty (createdb it first); the next
# start applies any migration the backup lacks. PGlite: into DATA_DIR (default ./data), which must not exist.
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
