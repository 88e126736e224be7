import CLinux

/// How the server asks glibc's allocator to keep memory it freed. Each group commit builds and
/// frees the pages of up to 256 check-ins on the writer's thread; with glibc's default (give the
/// top of a thread's heap back above 128 KB) every commit handed memory to the kernel with
/// `madvise` and took it back with `mprotect`, a TLB flush on every core each time: 6 % of the
/// writer's time under `make bench`.
enum AllocatorTuning {
    /// Free memory a heap keeps before it is returned to the kernel.
    static let trimThreshold: Int32 = 16 << 20
    /// Allocations at least this large are mapped on their own (fixed: setting the trim
    /// threshold stops glibc from raising it by itself).
    static let mmapThreshold: Int32 = 1 << 20

    /// Applies both, before the server's threads start.
    static func apply() {
        _ = mallopt(clinux_m_trim_threshold(), trimThreshold)
        _ = mallopt(clinux_m_mmap_threshold(), mmapThreshold)
    }
}
