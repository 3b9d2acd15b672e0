/* A trace file's bytes, plain or gzip: a gzip file is inflated member by
 * member, and anything after its last member that is not another one is
 * refused, as `gzip -t` refuses it (zlib's gzread drops it unsaid). */
#ifndef BOUNCE_TRACE_FILE_H
#define BOUNCE_TRACE_FILE_H

#include <stddef.h>
#include <stdint.h>

struct trace_file;

/* Read from fd (which it takes, also on failure); NULL when out of memory. */
struct trace_file *tf_open(int fd);
/* Up to n bytes into buf: how many, 0 at the end, or -1 with *why saying
 * what is wrong (NULL when a signal asked to stop). */
long tf_read(struct trace_file *t, char *buf, size_t n, const char **why);
/* Bytes of the file read so far (compressed, for a gzip file). */
uint64_t tf_offset(const struct trace_file *t);
void tf_close(struct trace_file *t);

#endif
