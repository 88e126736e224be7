#define _GNU_SOURCE
#include "process_arguments.h"

#include <dlfcn.h>
#include <stddef.h>

static int captured_argc;
static char *const *captured_argv;

/* Runs before main: glibc passes argc, argv and envp to `.init_array` functions. */
static void capture(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc >= 0 && argv != NULL) {
        captured_argc = argc;
        captured_argv = argv;
        /* The dynamic runtime's own entry point (debug builds: RTLD_NEXT is the definition
           after ours, in libswiftCore.so), told the same, so CommandLine agrees in every build. */
        void (*runtime_override)(char **, int) =
            (void (*)(char **, int))dlsym(RTLD_NEXT, "_swift_stdlib_overrideUnsafeArgvArgc");
        if (runtime_override != NULL) runtime_override(argv, argc);
    }
}

__attribute__((section(".init_array"), used))
static void (*const capture_entry)(int, char **, char **) = capture;

int cprocess_argc(void) { return captured_argv == NULL ? 0 : captured_argc; }

char *const *cprocess_argv(void) { return captured_argv; }

/*
 * Swift's runtime entry points for CommandLine.argc/unsafeArgv (declared in the toolchain's
 * shims as SWIFT_RUNTIME_STDLIB_API). Linked statically (the release build), the runtime's own
 * definitions come with an initialiser that reads /proc/self/maps and sscanf()s every line to
 * find the stack, then walks back from `environ`: 172,000 instructions before main in every
 * run of every command, a third of `qrcheckin --version`'s own work (docs/BENCHMARKS.md,
 * "Start-up"). Defined here, the linker never takes CommandLine.cpp.o out of libswiftCore.a,
 * so that initialiser is not in the binary at all.
 */
static char *no_arguments[1] = {NULL};
static char **override_argv;
static int override_argc;

char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (override_argv != NULL) {
        *outArgLen = override_argc;
        return override_argv;
    }
    *outArgLen = cprocess_argc();
    return captured_argv != NULL ? (char **)captured_argv : no_arguments;
}

void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    override_argv = argv;
    override_argc = argc;
}
