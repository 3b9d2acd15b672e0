/* ALWAYS and NEVER: conditions the engine's own logic makes true (false),
 * written around the path that copes when they are not, as SQLite does.
 * A checked build stops at the first one broken, where it broke; a
 * release build only evaluates them, and the coping path reports the
 * error as a value (ERR_INTERNAL). */
#ifndef BOUNCE_INVARIANT_H
#define BOUNCE_INVARIANT_H

/* `if (NEVER(x)) return err_internal(...)`: in a checked build (configure
 * --enable-checks or --enable-sanitizers, or BOUNCE_CHECKED defined), a
 * true x prints "file:line: internal error: NEVER(x)" on stderr and exits
 * with status 3, so that a sanitizer run or a test shows the bug at its
 * line rather than as a message after the run unwinds. In a release build
 * the condition is evaluated once, as written, with a branch hint: the
 * coping path still runs and behaviour is the same but for the hint.
 *
 * Only for what no input can cause: a bad scenario, program or file is
 * the user's, and gets err_set with its file:line:col in every build. */
#ifdef BOUNCE_CHECKED
#define ALWAYS(cond) ((cond) ? 1 : invariant_failed(__FILE__, __LINE__, "ALWAYS(" #cond ")"))
#define NEVER(cond) ((cond) ? invariant_failed(__FILE__, __LINE__, "NEVER(" #cond ")") : 0)
#else
#define ALWAYS(cond) __builtin_expect(!!(cond), 1)
#define NEVER(cond) __builtin_expect(!!(cond), 0)
#endif

/* Prints the broken condition and exits with status 3; never returns.
 * Declared in every build, so that a test can call it. */
_Noreturn int invariant_failed(const char *file, int line, const char *cond);

#endif
