// CSilkLinux: the Linux facilities Swift's Glibc module does not expose (memfd, epoll, eventfd,
// timerfd, signalfd) and the framebuffer / console / evdev ioctl definitions.
// Everything here is a thin, documented pass-through; policy lives in the Swift wrappers.
#ifndef CSILKLINUX_H
#define CSILKLINUX_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/input.h>

// MARK: memfd
/// memfd_create(2) with MFD_CLOEXEC | MFD_ALLOW_SEALING. Returns -1 and sets errno on failure.
int silk_memfd_create(const char *name);
/// Seals a memfd against shrinking and further sealing (F_SEAL_SHRINK | F_SEAL_SEAL).
int silk_memfd_seal_shrink(int fd);
/// The seals currently set (fcntl F_GET_SEALS), or -1.
int silk_memfd_get_seals(int fd);
extern const int SILK_F_SEAL_SHRINK;
extern const int SILK_F_SEAL_GROW;
extern const int SILK_F_SEAL_SEAL;

// MARK: epoll / eventfd / timerfd / signalfd
int silk_epoll_create(void);
int silk_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
/// epoll_wait filling parallel arrays (the packed struct epoll_event is awkward in Swift).
int silk_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int maxevents, int timeout_ms);
int silk_eventfd_create(void);
int silk_timerfd_create_monotonic(void);
/// Arms a timerfd: first expiry after `initial_ns`, then every `interval_ns` (0: one-shot; both 0: disarm).
int silk_timerfd_arm(int fd, int64_t initial_ns, int64_t interval_ns);
/// Blocks the termination signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1) in the calling
/// thread and returns a signalfd that reports them.
int silk_signalfd_int_term(void);
/// The first termination signal pending for the calling thread or the process (sigpending), or
/// 0; it stays pending. For waits outside the loop (connecting to a compositor).
int silk_pending_termination_signal(void);
/// Reads one signalfd_siginfo; returns the signal number, 0 if none, -1 on error.
int silk_signalfd_read(int fd);

// MARK: event loop support (SilkRunLoop)
/// timerfd_settime(TFD_TIMER_ABSTIME) on CLOCK_MONOTONIC: one expiry at `deadline_ns`; 0 disarms.
int silk_timerfd_arm_absolute(int fd, int64_t deadline_ns);
/// clock_gettime(CLOCK_MONOTONIC) in nanoseconds — the clock timerfds created above count in.
int64_t silk_clock_monotonic_ns(void);
/// The calling thread's kernel id (gettid(2)); equals getpid() on the process's main thread.
int32_t silk_current_thread_id(void);
/// pthread_sigmask(SIG_BLOCK) of the termination signals in the calling thread (inherited by
/// threads it starts), and SIGPIPE ignored for the process.
int silk_block_int_term(void);
/// pthread_setname_np on the calling thread (truncated to the kernel's 15 characters).
int silk_set_thread_name(const char *name);

// MARK: libdispatch main-queue SPI (exported by libdispatch.so; CoreFoundation's run loop uses
// the same pair on Linux). The handle is an eventfd that libdispatch writes when work is enqueued
// on the main queue; it is -1 once dispatch_main() has handed the main queue to worker threads.
// libdispatch never clears the eventfd: read it before calling the callback. The callback must be
// called on the process's main thread and drains the work enqueued before it started.
int _dispatch_get_main_queue_handle_4CF(void);
void _dispatch_main_queue_callback_4CF(void *msg);

// MARK: framebuffer, console, evdev ioctls (request numbers are macros Swift cannot import)
extern const unsigned long SILK_FBIOGET_VSCREENINFO;
extern const unsigned long SILK_FBIOPUT_VSCREENINFO;
extern const unsigned long SILK_FBIOGET_FSCREENINFO;
extern const unsigned long SILK_FBIOPAN_DISPLAY;
extern const unsigned long SILK_FBIOBLANK;
extern const unsigned long SILK_FBIO_WAITFORVSYNC;
extern const unsigned long SILK_KDSETMODE;
extern const unsigned long SILK_KDGETMODE;
extern const unsigned long SILK_VT_GETSTATE;
extern const unsigned long SILK_EVIOCGRAB;
int silk_ioctl_ptr(int fd, unsigned long request, void *arg);
int silk_ioctl_int(int fd, unsigned long request, unsigned long arg);
/// EVIOCGNAME(len) into buf.
int silk_evdev_name(int fd, char *buf, int len);
/// EVIOCGBIT(ev, len) into bits.
int silk_evdev_bits(int fd, int ev, uint8_t *bits, int len);
/// EVIOCGABS(axis).
int silk_evdev_absinfo(int fd, int axis, struct input_absinfo *info);

// MARK: framebuffer presenter and evdev input support (SilkFramebuffer)
extern const unsigned long SILK_EVIOCSCLOCKID;
extern const unsigned long SILK_VT_ACTIVATE;
/// inotify_init1(IN_NONBLOCK | IN_CLOEXEC).
int silk_inotify_init(void);
/// inotify_add_watch(fd, path, IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_MOVED_FROM).
int silk_inotify_watch_directory(int fd, const char *path);
extern const uint32_t SILK_IN_CREATE;
extern const uint32_t SILK_IN_DELETE;
extern const uint32_t SILK_IN_ATTRIB;
extern const uint32_t SILK_IN_MOVED_TO;
extern const uint32_t SILK_IN_MOVED_FROM;
/// mmap(PROT_READ | PROT_WRITE, MAP_SHARED); returns NULL (not MAP_FAILED) and sets errno on failure.
void *silk_mmap_shared(int fd, size_t length);

/// The console guard: remembers a tty descriptor and the keyboard/display mode to put back, and
/// restores it (KDSETMODE, the escape sequence `restore` — cursor, blanking — and FBIOBLANK off on
/// `fb_fd` when >= 0) from an atexit handler and from handlers for the fatal signals SIGSEGV,
/// SIGBUS, SIGILL, SIGTRAP, SIGABRT and SIGFPE (which then re-raise with the default action), so
/// that a crash does not leave the console in graphics mode. Only async-signal-safe calls are made
/// (ioctl, write). `silk_console_guard_restore` restores once (later calls do nothing) and may be
/// called from ordinary code; `silk_console_guard_arm` may be called again after a restore.
int silk_console_guard_arm(int tty_fd, int kd_mode, const char *restore, size_t restore_length);
void silk_console_guard_restore(void);
/// Whether the guard has restored the console since it was last armed (for tests and logs).
int silk_console_guard_restored(void);

/// The display guard (the KMS presenter): remembers the CRTC configuration Silk replaced on a DRM
/// device — `crtc_id`, the framebuffer `fb_id` it showed at (`x`, `y`), its connectors and its mode
/// (`mode`: a `struct drm_mode_modeinfo`, `mode_size` bytes, NULL when the CRTC had none) — and puts
/// it back with one DRM_IOCTL_MODE_SETCRTC on `drm_fd`. Restored from the console guard's atexit
/// and fatal-signal handlers, *before* the console (so the console's framebuffer is on screen when
/// text mode returns), and from ordinary code by `silk_display_guard_restore` (once per arming).
/// Returns -1 (EINVAL) for more than 8 connectors or an unexpected `mode_size`.
int silk_display_guard_arm(int drm_fd, uint32_t crtc_id, uint32_t fb_id, uint32_t x, uint32_t y,
                           const uint32_t *connectors, uint32_t connector_count,
                           const void *mode, size_t mode_size);
/// Restores the remembered CRTC once (later calls do nothing until armed again); returns the
/// ioctl's result (0, or -1 with errno), or 1 when there was nothing to restore.
int silk_display_guard_restore(void);
/// Forgets the remembered CRTC without touching the device (its descriptor is about to close).
void silk_display_guard_disarm(void);

/// glibc's `mallinfo2()` (all arenas): `in_use` bytes handed out from the arenas, `mapped`
/// bytes in blocks mapped on their own, `free_bytes` free in the arenas. Returns 0, or -1 where
/// the C library has no `mallinfo2` (looked up at run time: glibc < 2.33, musl).
int silk_heap_info(size_t *in_use, size_t *mapped, size_t *free_bytes);

#endif
