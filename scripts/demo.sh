#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make demo`: lockstep's main job on an embedded default. Everything happens in
# `lockstep demo` (two local agents, a scratch target, a short plan, a results folder); this only
# finds the binary. As root the scratch target is two loop devices over one file in /dev/shm.
set -euo pipefail
bin=${1:-build/bin}
exec "$bin/lockstep" demo
