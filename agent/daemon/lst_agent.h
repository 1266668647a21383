/*
 * lockstep-agent's daemon command (lst_agent.c): from the command line to a serving daemon.
 */
#ifndef LST_AGENT_H
#define LST_AGENT_H

/*
 * Run `lockstep-agent [options]` (argv[0] is the program): read the settings, daemonize unless
 * --foreground, serve until SIGINT or SIGTERM. Returns the exit status: 0, 1 when the daemon
 * could not start or its reactor failed, 2 for a bad command line or config (printed).
 */
int lst_agent_main(int argc, char **argv);

#endif
