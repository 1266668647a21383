# SPDX-License-Identifier: Apache-2.0
# For the tests that check many things and report every failure before they end (lib.sh's fail
# stops at the first): a scratch folder $dir, removed at exit, and fail, which counts. Source it,
# then end with: [ "$fails" -eq 0 ].
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
