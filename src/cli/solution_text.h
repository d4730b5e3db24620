/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * solution_text.h - an Equi-X solution as text: its 16-byte wire form as
 * 32 hex digits (equix_solution_pack()), or its eight indices as
 * comma-separated hex numbers ("0098,3a4d,...", the reference vectors'
 * notation).
 */
#ifndef EQUIX_CLI_SOLUTION_TEXT_H
#define EQUIX_CLI_SOLUTION_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include <equix.h>

/* 32 hex digits + NUL; 8 * 4 digits + 7 commas + NUL. */
#define CLI_SOLUTION_HEX_SIZE (2 * EQUIX_SOLUTION_BYTES + 1)
#define CLI_SOLUTION_INDICES_SIZE (EQUIX_NUM_IDX * 5)

/* Reads either form into the wire form. Returns NULL on success, else
 * what is wrong (a phrase for a message). */
const char *cli_solution_parse(const char *text,
			       uint8_t wire[EQUIX_SOLUTION_BYTES]);

void cli_solution_format_hex(const uint8_t wire[EQUIX_SOLUTION_BYTES],
			     char out[CLI_SOLUTION_HEX_SIZE]);
void cli_solution_format_indices(const equix_solution *solution,
				 char out[CLI_SOLUTION_INDICES_SIZE]);

#endif /* EQUIX_CLI_SOLUTION_TEXT_H */
