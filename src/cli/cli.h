/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli.h - what the parts of equix-cli share: its exit statuses (args.h,
 * in the tools' library, since the simulator returns them too) and the
 * entry point of each subcommand.
 *
 * Every subcommand takes its own argv, whose argv[0] is the subcommand's
 * name ("solve", "pow solve", ...), and returns the process exit status.
 */
#ifndef EQUIX_CLI_H
#define EQUIX_CLI_H

#include "args.h"

int cmd_solve(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_pow_solve(int argc, char **argv);
int cmd_pow_verify(int argc, char **argv);
int cmd_pow_simulate(int argc, char **argv);

#endif /* EQUIX_CLI_H */
