/*
 * The process's argv for Swift's CommandLine, captured the way glibc hands it over.
 *
 * Swift's runtime finds argv through two entry points, _swift_stdlib_getUnsafeArgvArgc and
 * _swift_stdlib_overrideUnsafeArgvArgc (declared in the toolchain's shims). Linked statically,
 * its own definitions come with a start-up initialiser that reads /proc/self/maps and
 * sscanf()s every line to find the stack, then walks back from `environ` to argv: 172,000
 * instructions and a kernel-generated file in every run of every command, a third of
 * `qrcheckin --version`'s own work (docs/BENCHMARKS.md, "Start-up"). Without /proc, or with
 * argc 0, it traps. glibc passes (argc, argv, envp) to each .init_array function of the
 * executable, so this file keeps them from there; defining the two entry points here means
 * the linker never takes the runtime's copy out of libswiftCore.a. With the dynamic runtime
 * (debug builds) libswiftCore.so calls its own copy, so that copy is handed the same
 * arguments through its override entry point: every build sees glibc's argv.
 */
#define _GNU_SOURCE
#include "ProcessArguments.h"

#include <dlfcn.h>
#include <stddef.h>

static char *no_arguments[1] = {NULL};
static char **captured_argv = no_arguments;
static int captured_argc = 0;
static char **override_argv = NULL;
static int override_argc = 0;

static void capture_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    if (argv == NULL || argc < 0) return;
    captured_argv = argv;
    captured_argc = argc;
    /* The dynamic runtime's own entry point, if it has one (RTLD_NEXT: the definition after ours). */
    void (*runtime_override)(char **, int) =
        (void (*)(char **, int))dlsym(RTLD_NEXT, "_swift_stdlib_overrideUnsafeArgvArgc");
    if (runtime_override != NULL) runtime_override(argv, argc);
}

/* Runs before main, with the arguments glibc's start-up passes to every initialiser. */
__attribute__((section(".init_array"), used))
static void (*const capture_arguments_entry)(int, char **, char **) = capture_arguments;

char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (override_argv != NULL) {
        *outArgLen = override_argc;
        return override_argv;
    }
    *outArgLen = captured_argc;
    return captured_argv;
}

void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    override_argv = argv;
    override_argc = argc;
}
