#ifndef CPROCESSARGUMENTS_H
#define CPROCESSARGUMENTS_H
/* The command line as the kernel passed it, captured before main without /proc.

   Swift's CommandLine on Linux finds argv by reading /proc/self/maps and walking the stack up
   from `environ`: with /proc unmounted (an image builder's chroot) or `environ` moved by an
   LD_PRELOAD constructor that called setenv(3), it finds nothing, reports argc 0, and every
   command trapped. glibc calls each ELF `.init_array` function with (argc, argv, envp) — the
   extension Rust's standard library relies on for the same purpose — so a constructor here
   keeps the real values. */

/* The argument count (0 when the process was started without arguments, or before the
   constructor ran, e.g. under a C library that does not pass them). */
int cprocess_argc(void);

/* The argument vector (argv[argc] is NULL), or NULL when none was captured. */
char *const *cprocess_argv(void);

/* Swift's runtime entry points for CommandLine, defined in process_arguments.c from the same
   capture so the static runtime's own (a scan of /proc/self/maps before main) is not linked. */
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);
void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);
#endif
