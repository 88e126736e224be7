#ifndef CPROCESSARGUMENTS_H
#define CPROCESSARGUMENTS_H
/* Swift's runtime entry points for argv (see ProcessArguments.c); Swift code keeps using
   CommandLine.argc and CommandLine.unsafeArgv. */
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);
void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);
#endif
