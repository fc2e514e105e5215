#!/usr/bin/env bash
# Runs a command beside N CPU-bound neighbour processes, the way a shared machine runs it,
# then stops them. The suite must pass like this (its tests wait on events, not timers):
#
#   bash bench/under_load.sh                      # the README's test command (.ci/run), 2 burners
#   bash bench/under_load.sh -n 3 -- .venv/bin/python -m pytest -q -m "not slow" tests/test_remote.py
#
# The burners start before the command and run the whole time; they are this script's own
# children, stopped by their process ids when the command ends (or is interrupted). The
# command's exit status is this script's. It prints the load average before and after and the
# command's wall time on stderr, so a figure measured under load can say what load it ran at.
set -uo pipefail
cd "$(dirname "$0")/.."

burners=2
while [ $# -gt 0 ]; do
  case "$1" in
    -n)
      [ $# -ge 2 ] || { echo "under_load: error: -n: needs a number" >&2; exit 2; }
      burners="$2"; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
case "$burners" in
  ''|*[!0-9]*) echo "under_load: error: -n: not a whole number: $burners" >&2; exit 2 ;;
esac
if [ $# -eq 0 ]; then
  set -- bash .ci/run
fi

pids=()
stop() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null
  done
  pids=()
}
trap stop EXIT
trap 'stop; exit 130' INT TERM

for _ in $(seq 1 "$burners"); do
  # A pure CPU loop: no I/O, no memory, nothing to clean up but the process.
  python3 -c 'while True: pass' &
  pids+=("$!")
done

echo "under_load: $burners CPU burner(s) (pids ${pids[*]:-none}); load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
start=$(date +%s)
"$@"
rc=$?
end=$(date +%s)
echo "under_load: exit $rc after $((end - start)) s; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$rc"
