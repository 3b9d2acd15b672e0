/* Where an instruction was written, for the reports that name code (the
 * shared-line table's instructions, the c2c report, the cores a run left
 * unfinished): "file:line", with the path relative to the scenario, and
 * the instruction's text as written, without its label or comment. */
#ifndef BOUNCE_REPORT_SOURCE_H
#define BOUNCE_REPORT_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "run/runner.h"

struct rep_source;

/* NULL when out of memory. Source files are read on first use, once. */
struct rep_source *rep_source_new(const struct runner *r);
void rep_source_free(struct rep_source *src);
/* "?" for where and "" for text when the program does not know, or the
 * file cannot be read any more. 0, or -1 when out of memory. */
int rep_source_insn(struct rep_source *src, uint32_t pc, char *where, size_t wn, char *text,
		     size_t tn);

/* Where each core that has not halted is (a run stopped at its limit):
 * one line per instruction, "cores 0-6 (spin): file:line  text". */
void rep_print_unfinished(const struct runner *r, FILE *f);

#endif
