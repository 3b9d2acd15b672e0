/* Opening an input file (scenario, CPU model, program, .include) without
 * ever blocking: a FIFO or device would make open() or read() wait forever,
 * so anything but a regular file is refused before it is opened. */
#ifndef BOUNCE_INPUT_FILE_H
#define BOUNCE_INPUT_FILE_H

#include <stdio.h>
#include <sys/stat.h>

/* A descriptor for reading `path`, with *st filled. On failure -1 and
 * *errnum is an errno value, or 0 when the path exists but is not a
 * regular file (input_kind(st->st_mode) says what it is). */
int input_open(const char *path, struct stat *st, int *errnum);
/* Whether a name is one a workload file may have (.s, .S, .inc): a program
 * or .include naming anything else (/etc/shadow) is refused before it is
 * read, so no message can quote a line of a file that is not a workload. */
int input_is_workload_name(const char *path);
#define INPUT_WORKLOAD_NAMES ".s, .S or .inc"
/* A scenario's program may also be a C source, which is compiled first
 * (load/c_compile.h); an .include may not. */
int input_is_program_name(const char *path);
#define INPUT_PROGRAM_NAMES ".s, .S, .inc or .c"

/* The rest of stream f, in a malloc'd buffer with a NUL after the *len
 * bytes read; with max > 0 it stops once more than max bytes are in
 * (*len > max tells the caller the file is over its limit). NULL when out
 * of memory. Read errors are left on the stream (ferror). */
char *input_read_all(FILE *f, size_t max, size_t *len);

/* "a directory", "a FIFO", "a character device", ... for messages. */
const char *input_kind(mode_t mode);

#endif
