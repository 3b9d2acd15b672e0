/* Test helper: print the value at a report path ("variants.atomic.totals.
 * bounces") of a JSON file, using the same lookup as expectations. Exits 1
 * when the file does not parse or the path is absent, so a shell test can
 * assert on exact values without a JSON tool on the machine. */
#include "config.h"
#include "report/report.h"
#include "load/json_pos.h"
#include "base/input_file.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: json_get FILE PATH (PATH '.' checks that FILE parses)\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	size_t n = 0;
	char *buf = input_read_all(f, 0, &n);
	fclose(f);
	if (!buf)
		return 1;
	/* Parsed with positions, so integers are read exactly from the text;
	 * a file over the loader's size limit (a long trace) by cJSON alone. */
	struct err e = {0};
	struct jpos_doc *doc = n <= JPOS_MAX_BYTES ? jpos_parse(argv[1], buf, n, &e) : NULL;
	cJSON *big = doc ? NULL : cJSON_ParseWithLength(buf, n);
	free(buf);
	if (!doc && !big) {
		fprintf(stderr, "%s: not valid JSON\n", argv[1]);
		return 1;
	}
	const cJSON *root = doc ? jpos_root(doc) : big;
	int64_t iv = 0;
	const cJSON *v = strcmp(argv[2], ".") == 0 ? root : rep_lookup(root, argv[2]);
	int rc = 0;
	if (!v) {
		fprintf(stderr, "%s: no %s\n", argv[1], argv[2]);
		rc = 1;
	} else if (cJSON_IsNumber(v) && doc && jpos_int(doc, v, INT64_MIN, INT64_MAX, &iv, &e) == 0) {
		printf("%" PRId64 "\n", iv);
	} else if (cJSON_IsNumber(v)) {
		printf("%.17g\n", v->valuedouble);
	} else if (cJSON_IsString(v)) {
		printf("%s\n", v->valuestring);
	} else if (cJSON_IsBool(v)) {
		printf("%s\n", cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsArray(v)) {
		printf("%d\n", cJSON_GetArraySize(v));
	} else {
		printf("object\n");
	}
	jpos_free(doc);
	cJSON_Delete(big);
	return rc;
}
