# A CSV that bounce wrote, as tab-separated fields without quotes, for the
# docs generators: string fields may be quoted and hold commas ("a, b"),
# doubled quotes stand for one, and no field holds a tab or a newline.
# Usage: awk -f docs/csv-tsv.awk FILE | awk -F'\t' '...'
{
	n = 0; q = 0; cur = ""
	for (i = 1; i <= length($0); i++) {
		c = substr($0, i, 1)
		if (q) { if (c == "\"") { if (substr($0, i + 1, 1) == "\"") { cur = cur c; i++ } else q = 0 } else cur = cur c }
		else if (c == "\"") q = 1
		else if (c == ",") { f[++n] = cur; cur = "" }
		else cur = cur c
	}
	f[++n] = cur
	line = f[1]
	for (i = 2; i <= n; i++) line = line "\t" f[i]
	print line
}
