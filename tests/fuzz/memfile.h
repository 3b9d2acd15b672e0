/* The fuzz targets whose code under test reads files by path (zip archives,
 * plot's and merge's CSVs): the fuzzer's bytes as an anonymous in-memory
 * file, named by its /proc/self/fd path, a regular file to every check. */
#ifndef BOUNCE_FUZZ_MEMFILE_H
#define BOUNCE_FUZZ_MEMFILE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* The file's descriptor (path filled in), or -1. */
static inline int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t path_size)
{
	int fd = memfd_create("fuzz.input", 0);
	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);
	snprintf(path, path_size, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
