/*
 * `lockstep-agent bench`: run one workload on this host, without a coordinator, and print what
 * was measured (a readable summary, or JSON). The same job engine the daemon uses.
 */
#ifndef LST_BENCH_H
#define LST_BENCH_H

/* main()-style entry; argv[0] is "bench". Returns the exit code (0 ok, 1 I/O errors, 2 usage). */
int lst_bench_main(int argc, char **argv);

#endif
