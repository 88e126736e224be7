#include "process_arguments.h"
#include <stddef.h>

static int captured_argc;
static char *const *captured_argv;

/* Runs before main: glibc passes argc, argv and envp to `.init_array` functions. */
static void capture(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc >= 0 && argv != NULL) {
        captured_argc = argc;
        captured_argv = argv;
    }
}

__attribute__((section(".init_array"), used))
static void (*const capture_entry)(int, char **, char **) = capture;

int cprocess_argc(void) { return captured_argv == NULL ? 0 : captured_argc; }

char *const *cprocess_argv(void) { return captured_argv; }
