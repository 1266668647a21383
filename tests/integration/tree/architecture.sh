#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The architecture check over the built tree: every library the build defines against the table
# (cmake/architecture.txt, drawn in docs/ARCHITECTURE.md). Fails on a use between libraries the
# table does not allow and on a circle of files inside a library that it neither allows nor
# lists as known; prints files per library and the known circles still present.
. "$(dirname "$0")/../lib.sh"
need_cmd "${NM:-nm}"
"$PY" "$LST_SRC/tests/integration/check_architecture.py" --stats --nm "${NM:-nm}" \
	"$LST_SRC/cmake/architecture.txt" "$LST_BUILD/tests/architecture.libs" ||
	fail "the tree breaks the rooms of docs/ARCHITECTURE.md (above)"
ok "every library keeps to cmake/architecture.txt"
