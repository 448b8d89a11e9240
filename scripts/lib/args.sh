# Sourced by the scripts that take paths and counts (match-resume.sh, threads-worth.sh,
# selfplay-data.sh, make-data.sh), not run.
#
# abs_path PATH
#   PATH made absolute against the caller's working directory (it need not exist yet), so
#   that a script that changes directory, or runs something elsewhere, still names what the
#   caller named: `scripts/x.sh out` from /home/me writes /home/me/out, not REPO/out.
abs_path() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$PWD/$1" ;;
  esac
}

# whole_number NAME VARIABLE VALUE MIN MAX
#   Exits 2 with `NAME: VARIABLE must be a whole number from MIN to MAX, not 'VALUE'` unless
#   VALUE is one. Checked as a string first (digits only, at most 9 of them), so that no
#   value reaches bash's arithmetic, which on a huge one wraps or fails with its own error.
#   Leading zeros are decimal ("08" is 8); use $((10#$VALUE)) after.
whole_number() {
  local name=$1 var=$2 value=$3 min=$4 max=$5
  if ! [[ "$value" =~ ^[0-9]{1,9}$ ]] || ((10#$value < min || 10#$value > max)); then
    echo "$name: $var must be a whole number from $min to $max, not '$value'" >&2
    exit 2
  fi
}
