/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Everything a hook started ends with it. A hook runs as root and may leave processes behind:
 * a `cmd &` in its group, a `setsid cmd` in a session of its own, a daemon that double-forks.
 * None of them may outlive the hook's end, nor the agent.
 *
 * How they are found: the agent is the child subreaper of its descendants
 * (PR_SET_CHILD_SUBREAPER), so an orphan of a hook becomes the agent's child instead of init's
 * and stays visible; every hook run gets a token in its environment (LOCKSTEP_HOOK_RUN, which
 * fork, exec and setsid keep); and /proc is walked. A run's processes are those in its leader's
 * process group, those whose environment holds its token, the agent's orphans when no other run
 * is registered, and every descendant of any of them (setsid changes neither the parent nor the
 * environment). They get SIGTERM (and SIGCONT), then SIGKILL after a grace, and the agent reaps
 * those that became its children. Never another run's leader, never the agent itself.
 *
 * Not covered: a process that both left the hook's group and cleared its environment while
 * another hook was running; anything left when the agent is killed with SIGKILL (a cgroup, or
 * systemd's KillMode=control-group in the packaged unit, covers that).
 *
 * Thread-safe: hook threads register and end their runs concurrently (one mutex).
 */
#ifndef LST_HOOK_TREE_H
#define LST_HOOK_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LST_HOOK_TREE_ENV "LOCKSTEP_HOOK_RUN"
#define LST_HOOK_TREE_TOKEN_MAX 48

/*
 * Make this process the reaper of its orphaned descendants, once (later calls do nothing).
 * Returns 0 or -errno (a kernel without PR_SET_CHILD_SUBREAPER: orphans then go to init and
 * only those still in the group or holding the token are found).
 */
int lst_hook_tree_init(void);

/* A new run's token, "PID.N", unique in this agent's life, into buf (LST_HOOK_TREE_TOKEN_MAX). */
void lst_hook_tree_token(char *buf, size_t size);

/* Start a run's leader (posix_spawn), filling *leader; 0 or -errno. */
typedef int lst_hook_tree_spawn_fn(void *arg, pid_t *leader);

/*
 * Start a run with spawn(arg, leader) and register it (its leader's pid, also its process group,
 * and its token) in one step under the registry's lock, which a walk holds too: a leader just
 * started is never taken for another run's orphan. Returns what spawn returned.
 */
int lst_hook_tree_spawn(lst_hook_tree_spawn_fn *spawn, void *arg, const char *token, pid_t *leader);

/*
 * End every process of the run (leader, token) but the leader itself, whether it still runs or
 * not (the caller reaps the leader), and unregister it. grace: SIGTERM first and up to
 * LST_HOOK_TREE_GRACE_NS for them to go before SIGKILL; else SIGKILL at once. Blocks until none
 * is left or a bounded time has passed. Returns how many processes were signalled.
 */
size_t lst_hook_tree_end(pid_t leader, const char *token, bool grace);

/*
 * At the agent's exit: end every registered run, leaders included, and every other descendant
 * of the agent that a hook left (SIGTERM, a short grace, SIGKILL). Returns how many processes
 * were signalled.
 */
size_t lst_hook_tree_end_all(void);

#define LST_HOOK_TREE_GRACE_NS (1000 * (int64_t)1000000) /* SIGTERM to SIGKILL, 1 s */

#endif
