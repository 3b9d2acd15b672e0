/* PNG assertions for the UI tests, decoded with SDL2_image so the tests
 * need nothing beyond what the visualizer links:
 *   ui_pngcheck size FILE W H          the image is W x H
 *   ui_pngcheck colors FILE RRGGBB...  each colour covers >= 40 pixels
 *   ui_pngcheck differ A B             at least 0.5% of the pixels differ
 *   ui_pngcheck count FILE RRGGBB      print how many pixels have the colour
 * Exits 0 when the assertion holds, 1 with a message when not, 2 on error. */
#include <SDL.h>
#include <SDL_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static SDL_Surface *load(const char *path)
{
	SDL_Surface *s = IMG_Load(path);
	if (!s) {
		fprintf(stderr, "ui_pngcheck: %s: %s\n", path, IMG_GetError());
		exit(2);
	}
	SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
	SDL_FreeSurface(s);
	if (!c) {
		fprintf(stderr, "ui_pngcheck: %s: %s\n", path, SDL_GetError());
		exit(2);
	}
	return c;
}

static Uint32 px(const SDL_Surface *s, int x, int y)
{
	return ((const Uint32 *)((const Uint8 *)s->pixels + (size_t)y * s->pitch))[x] & 0xffffff;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "size")) {
		SDL_Surface *s = load(argv[2]);
		int w = atoi(argv[3]), h = atoi(argv[4]);
		if (s->w != w || s->h != h) {
			printf("%s: %dx%d, expected %dx%d\n", argv[2], s->w, s->h, w, h);
			return 1;
		}
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "colors")) {
		SDL_Surface *s = load(argv[2]);
		int bad = 0;
		for (int i = 3; i < argc; i++) {
			Uint32 want = (Uint32)strtoul(argv[i], NULL, 16);
			long n = 0;
			for (int y = 0; y < s->h; y++)
				for (int x = 0; x < s->w; x++)
					n += px(s, x, y) == want;
			if (n < 40) {
				printf("%s: colour #%06x covers %ld pixels, expected at least 40\n", argv[2],
				       (unsigned)want, n);
				bad = 1;
			}
		}
		return bad;
	}
	if (argc >= 4 && !strcmp(argv[1], "differ")) {
		SDL_Surface *a = load(argv[2]), *b = load(argv[3]);
		if (a->w != b->w || a->h != b->h)
			return 0;
		long n = 0;
		for (int y = 0; y < a->h; y++)
			for (int x = 0; x < a->w; x++)
				n += px(a, x, y) != px(b, x, y);
		long need = (long)a->w * a->h / 200;
		if (n < need) {
			printf("%s and %s differ in %ld pixels, expected at least %ld\n", argv[2], argv[3], n, need);
			return 1;
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "count")) {
		SDL_Surface *s = load(argv[2]);
		Uint32 want = (Uint32)strtoul(argv[3], NULL, 16);
		long n = 0;
		for (int y = 0; y < s->h; y++)
			for (int x = 0; x < s->w; x++)
				n += px(s, x, y) == want;
		printf("%ld\n", n);
		return 0;
	}
	fprintf(stderr, "usage: ui_pngcheck size FILE W H | colors FILE RRGGBB... | differ A B | count FILE RRGGBB\n");
	return 2;
}
