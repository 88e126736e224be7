import CLinux
import Glibc

// Swift's Glibc overlay declares these in Swift (one object, libswiftGlibc.a's Glibc.o); linking it
// also links the libm wrappers in it, and the dynamic loader binds 56 libm functions at every
// start (BIND_NOW) for nothing. Declared here with the overlay's own signatures, they shadow it in
// this module (a module's own declarations win over imported ones), so call sites stay as they are
// and the object is never linked (CLinux/shim.h; docs/BENCHMARKS.md, "Start-up"): every module
// of qrcheckin that uses them has this file. Disfavoured, so
// a module that sees both (a test target's @testable import) still gets the overlay's.

/// The calling thread's errno.
@_disfavoredOverload var errno: Int32 {
    get { clinux_errno() }
    set { clinux_set_errno(newValue) }
}
/// open(2) without a mode.
@_disfavoredOverload func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { clinux_open(path, oflag, 0) }
/// open(2).
@_disfavoredOverload func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { clinux_open(path, oflag, mode) }
/// openat(2) without a mode.
@_disfavoredOverload func openat(_ fd: Int32, _ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { clinux_openat(fd, path, oflag, 0) }
/// openat(2).
@_disfavoredOverload func openat(_ fd: Int32, _ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { clinux_openat(fd, path, oflag, mode) }
/// fcntl(2) with an integer argument.
@_disfavoredOverload func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { clinux_fcntl(fd, cmd, value) }
/// ioctl(2) with a pointer argument.
@_disfavoredOverload func ioctl(_ fd: Int32, _ request: UInt, _ pointer: UnsafeMutableRawPointer) -> Int32 { clinux_ioctl(fd, request, pointer) }
/// The process environment.
@_disfavoredOverload var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { clinux_environ() }
/// signal(2)'s "ignore".
@_disfavoredOverload var SIG_IGN: @convention(c) (Int32) -> Void { clinux_sig_ign() }
/// File type and mode bits (stat(2)).
@_disfavoredOverload var S_IFMT: mode_t { clinux_s_ifmt() }
/// A regular file.
@_disfavoredOverload var S_IFREG: mode_t { clinux_s_ifreg() }
/// A directory.
@_disfavoredOverload var S_IFDIR: mode_t { clinux_s_ifdir() }
/// A symbolic link.
@_disfavoredOverload var S_IFLNK: mode_t { clinux_s_iflnk() }
/// A socket.
@_disfavoredOverload var S_IFSOCK: mode_t { clinux_s_ifsock() }
/// A FIFO.
@_disfavoredOverload var S_IFIFO: mode_t { clinux_s_ififo() }
/// A character device.
@_disfavoredOverload var S_IFCHR: mode_t { clinux_s_ifchr() }
/// A block device.
@_disfavoredOverload var S_IFBLK: mode_t { clinux_s_ifblk() }
/// Writable by others.
@_disfavoredOverload var S_IWOTH: mode_t { clinux_s_iwoth() }
/// Writable by the group.
@_disfavoredOverload var S_IWGRP: mode_t { clinux_s_iwgrp() }
/// The sticky bit.
@_disfavoredOverload var S_ISVTX: mode_t { clinux_s_isvtx() }
