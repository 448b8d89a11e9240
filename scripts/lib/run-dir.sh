# Sourced by the resumable scripts (match-resume.sh, selfplay-data.sh), not run: one output
# directory holds one run, so that a stopped run can be started again where it stopped and
# two runs never write over each other.
#
# claim_run_dir NAME OUT SETTINGS
#   Creates OUT and takes OUT/.lock (on file descriptor 9, held until the calling script
#   ends). Records SETTINGS in OUT/run.settings on the first run, and on a later one checks
#   that they are the same. Exits 2 with a message that starts with NAME when another run
#   holds the lock, or when OUT holds a run with other settings.
claim_run_dir() {
  local name=$1 out=$2 settings=$3
  mkdir -p "$out"
  exec 9> "$out/.lock"
  if ! flock -n 9; then
    echo "$name: another run is using $out" >&2
    exit 2
  fi
  if [ -e "$out/run.settings" ]; then
    if [ "$(cat "$out/run.settings")" != "$settings" ]; then
      echo "$name: $out holds another run:" >&2
      echo "  there: $(cat "$out/run.settings")" >&2
      echo "  now:   $settings" >&2
      exit 2
    fi
  else
    echo "$settings" > "$out/run.settings"
  fi
}
