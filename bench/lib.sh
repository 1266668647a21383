# SPDX-License-Identifier: Apache-2.0
# Shared helpers for benchmarks. Benchmarks print figures side by side with the reference tool
# measured in the same run; they never fail on a time. Run them on a quiet machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${LST_BIN:-$ROOT/build/bin}
AGENT=$BIN/lockstep-agent
[ -x "$AGENT" ] || { echo "build first: make build" >&2; exit 2; }
command -v fio >/dev/null || { echo "needs fio (apt-get install fio)" >&2; exit 2; }

_cleanups=()
on_exit() { _cleanups+=("$*"); }
_bench_cleanup() {
	set +e
	for ((i = ${#_cleanups[@]} - 1; i >= 0; i--)); do eval "${_cleanups[i]}" >/dev/null 2>&1; done
}
trap _bench_cleanup EXIT
TMP=$(mktemp -d /tmp/lst-bench.XXXXXX)
on_exit "rm -rf '$TMP'"

# free_ports N: N distinct TCP ports free on 127.0.0.1 right now (bound together while chosen,
# so none repeats).
free_ports() {
	python3 -c 'import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s:
    x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' "$1"
}

# wait_port PORT: until something accepts on 127.0.0.1:PORT (5 s at most).
wait_port() {
	for _ in $(seq 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		sleep 0.05
	done
	echo "nothing listens on port $1" >&2
	exit 2
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# fio_json FILE EXPR / lst_json FILE EXPR: a figure out of either tool's JSON.
pyj() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# tmpfs_loop SIZE: a loop device over a SIZE file in /dev/shm, both removed on exit; sets $dev.
tmpfs_loop() {
	local back
	back=$(mktemp /dev/shm/lst-bench.XXXXXX)
	on_exit "rm -f '$back'"
	truncate -s "$1" "$back"
	dev=$(losetup -f --show "$back")
	on_exit "losetup -d '$dev'"
}

# own_cpu OUT CMD...: run CMD with its stdout in OUT; print the CPU seconds (user + system,
# every thread) it used.
own_cpu() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], "w"), check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)' "$@"
}

# old_bin REF|DIR: the binaries of the tree to compare with, for the figures printed beside
# this tree's. A folder holding lockstep (a build's bin/) is taken as is; anything else is a git
# ref (main, a commit), checked out in $ROOT/build-old/src and built in $ROOT/build-old, which
# is kept for the next run. Prints the bin folder (its tests/ sibling holds the swarm).
old_bin() {
	local ref=$1 dir=$ROOT/build-old
	if [ -x "$ref/lockstep" ]; then
		(cd "$ref" && pwd)
		return
	fi
	if [ ! -d "$dir/src" ]; then
		git -C "$ROOT" worktree add -f --detach "$dir/src" "$ref" >&2
	else
		git -C "$dir/src" checkout -q --detach "$ref" >&2
	fi
	cmake -S "$dir/src" -B "$dir" >/dev/null && cmake --build "$dir" -j2 >/dev/null ||
		{ echo "cannot build $ref in $dir" >&2; exit 2; }
	echo "$dir/bin"
}
