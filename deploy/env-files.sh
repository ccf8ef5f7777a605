# Sourced by deploy/backup.sh and deploy/restore.sh. Like the server: a variable the environment does not set is
# read from .env.local, then .env (working directory).
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
