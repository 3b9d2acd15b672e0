/* Replays fuzz inputs without libFuzzer: each argument is a file or a
 * directory of files, fed one by one to the target's LLVMFuzzerTestOneInput.
 * Linked with every fuzz target as a check program, so the committed
 * regression inputs run in `make check` under gcc and the sanitizer build. */
#include "config.h"
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf || bad) {
		free(buf);
		fprintf(stderr, "replay: %s: cannot read\n", path);
		return -1;
	}
	printf("replay %s (%zu bytes)\n", path, len);
	fflush(stdout); /* the name is out before a crash in the target */
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of a directory in name order, so a run is reproducible. */
static int replay_dir(const char *path)
{
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
			if (!nn) {
				rc = -1;
				break;
			}
			names = nn;
		}
		size_t l = strlen(path) + strlen(de->d_name) + 2;
		if (!(names[n] = malloc(l))) {
			rc = -1;
			break;
		}
		snprintf(names[n++], l, "%s/%s", path, de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && replay_file(names[i]))
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			rc = 1;
		} else if ((S_ISDIR(st.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i])) != 0) {
			rc = 1;
		}
	}
	return rc;
}
