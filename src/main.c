/* bounce's entry point: signals, where the data is, and the command line
 * (cli/) started with the UI's hooks (src/cli_ui.c), so the CLI never
 * includes the UI. */
#include "config.h"
#include "cli/cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/outfile.h"
#include "cli_ui.h"

/* Set by Makefile.am; the defaults are for tools that compile this file alone. */
#ifndef BOUNCE_DATADIR
#define BOUNCE_DATADIR "."
#endif
#ifndef BOUNCE_SRCDIR
#define BOUNCE_SRCDIR "."
#endif
#ifndef BOUNCE_BUILDDIR
#define BOUNCE_BUILDDIR ""
#endif

volatile sig_atomic_t cli_interrupted;

static void on_signal(int sig)
{
	cli_interrupted = sig;
	err_request_interrupt(); /* the engine's loops poll this one */
	/* A second signal means "now": drop pending output and leave. */
	static volatile sig_atomic_t seen;
	if (seen++) {
		outfile_cleanup_all();
		_exit(EXIT_INTERRUPTED);
	}
}

static int has_data(const char *dir)
{
	char p[4200];
	struct stat st;
	snprintf(p, sizeof p, "%s/cpus", dir);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where cpus/ and scenarios/ are when BOUNCE_DATADIR does not say: a
 * program in its build tree uses the source tree's (what it was built
 * with); an installed one, the compiled-in $(pkgdatadir); one whose
 * installation was moved (a DESTDIR staging tree, a copied prefix), the
 * share/bounce beside its bin/. The loader reads BOUNCE_DATADIR. */
static void locate_data(void)
{
	const char *d = getenv("BOUNCE_DATADIR");
	char exe[4096];
	ssize_t n;
	if ((d && *d) || (n = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0)
		return;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = 0;
	char *build = realpath(BOUNCE_BUILDDIR, NULL);
	int in_build = build && strcmp(build, exe) == 0;
	free(build);
	if (in_build) {
		setenv("BOUNCE_DATADIR", BOUNCE_SRCDIR, 1);
		return;
	}
	if (has_data(BOUNCE_DATADIR))
		return;
	char moved[4200];
	snprintf(moved, sizeof moved, "%s/../share/%s", exe, PACKAGE);
	char *real = realpath(moved, NULL);
	if (real && has_data(real))
		setenv("BOUNCE_DATADIR", real, 1);
	free(real);
}


int main(int argc, char **argv)
{
	/* Before anything else: a SIGTERM in the first milliseconds is an
	 * interruption (exit 130) like any later one, not a kill. */
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A hangup (the terminal closed) ends a command as SIGTERM does,
	 * unless it came in ignored: under nohup it must stay ignored. */
	struct sigaction hup;
	if (sigaction(SIGHUP, NULL, &hup) == 0 && hup.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	locate_data();
	return cli_main(argc, argv, cli_ui_hooks());
}
