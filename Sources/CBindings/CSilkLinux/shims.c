#define _GNU_SOURCE
#include "CSilkLinux.h"
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <sys/inotify.h>
#include <stdlib.h>
#include <stdatomic.h>

const int SILK_F_SEAL_SHRINK = F_SEAL_SHRINK;
const int SILK_F_SEAL_GROW = F_SEAL_GROW;
const int SILK_F_SEAL_SEAL = F_SEAL_SEAL;

int silk_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}
int silk_memfd_seal_shrink(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL); }
int silk_memfd_get_seals(int fd) { return fcntl(fd, F_GET_SEALS); }

int silk_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
int silk_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}
int silk_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int maxevents, int timeout_ms) {
    struct epoll_event evs[64];
    if (maxevents > 64) maxevents = 64;
    int n = epoll_wait(epfd, evs, maxevents, timeout_ms);
    for (int i = 0; i < n; i++) { events[i] = evs[i].events; data[i] = evs[i].data.u64; }
    return n;
}
int silk_eventfd_create(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
int silk_timerfd_create_monotonic(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}
int silk_timerfd_arm(int fd, int64_t initial_ns, int64_t interval_ns) {
    struct itimerspec its;
    its.it_value.tv_sec = initial_ns / 1000000000;
    its.it_value.tv_nsec = initial_ns % 1000000000;
    its.it_interval.tv_sec = interval_ns / 1000000000;
    its.it_interval.tv_nsec = interval_ns % 1000000000;
    return timerfd_settime(fd, 0, &its, NULL);
}
// The signals that end the loop in order. SIGHUP (the terminal or ssh session closed), SIGQUIT
// (Ctrl-\) and SIGUSR1 would otherwise kill the process with their default action, skipping the
// exit observers (on the framebuffer: the console left in graphics mode); the Swift runtime's
// backtracer also takes SIGQUIT, prints a crash report and leaves the process alive.
static void termination_set(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGQUIT);
    sigaddset(set, SIGUSR1);
}
int silk_signalfd_int_term(void) {
    sigset_t set;
    termination_set(&set);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}
int silk_pending_termination_signal(void) {
    sigset_t pending, set;
    termination_set(&set);
    if (sigpending(&pending) != 0) return 0;
    // In the order a user would most want named: the explicit stops first.
    int order[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1 };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (sigismember(&set, order[i]) && sigismember(&pending, order[i])) return order[i];
    }
    return 0;
}
int silk_timerfd_arm_absolute(int fd, int64_t deadline_ns) {
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    its.it_value.tv_sec = deadline_ns / 1000000000;
    its.it_value.tv_nsec = deadline_ns % 1000000000;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL);
}
int64_t silk_clock_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
int32_t silk_current_thread_id(void) { return (int32_t)gettid(); }
int silk_block_int_term(void) {
    sigset_t set;
    termination_set(&set);
    int result = pthread_sigmask(SIG_BLOCK, &set, NULL);
    if (result != 0) { errno = result; return -1; }
    // A write to a closed pipe or socket (a reader that went away, a compositor that closed)
    // is an EPIPE error to handle where it happens, not a silent death by SIGPIPE.
    signal(SIGPIPE, SIG_IGN);
    return 0;
}
int silk_set_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    int result = pthread_setname_np(pthread_self(), truncated);
    if (result != 0) { errno = result; return -1; }
    return 0;
}
int silk_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n == (ssize_t)sizeof info) return (int)info.ssi_signo;
    if (n < 0 && errno == EAGAIN) return 0;
    return -1;
}

const unsigned long SILK_FBIOGET_VSCREENINFO = FBIOGET_VSCREENINFO;
const unsigned long SILK_FBIOPUT_VSCREENINFO = FBIOPUT_VSCREENINFO;
const unsigned long SILK_FBIOGET_FSCREENINFO = FBIOGET_FSCREENINFO;
const unsigned long SILK_FBIOPAN_DISPLAY = FBIOPAN_DISPLAY;
const unsigned long SILK_FBIOBLANK = FBIOBLANK;
const unsigned long SILK_FBIO_WAITFORVSYNC = FBIO_WAITFORVSYNC;
const unsigned long SILK_KDSETMODE = KDSETMODE;
const unsigned long SILK_KDGETMODE = KDGETMODE;
const unsigned long SILK_VT_GETSTATE = VT_GETSTATE;
const unsigned long SILK_EVIOCGRAB = EVIOCGRAB;

int silk_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
int silk_ioctl_int(int fd, unsigned long request, unsigned long arg) { return ioctl(fd, request, arg); }
int silk_evdev_name(int fd, char *buf, int len) { return ioctl(fd, EVIOCGNAME(len), buf); }
int silk_evdev_bits(int fd, int ev, uint8_t *bits, int len) { return ioctl(fd, EVIOCGBIT(ev, len), bits); }
int silk_evdev_absinfo(int fd, int axis, struct input_absinfo *info) { return ioctl(fd, EVIOCGABS(axis), info); }

const unsigned long SILK_EVIOCSCLOCKID = EVIOCSCLOCKID;
const unsigned long SILK_VT_ACTIVATE = VT_ACTIVATE;
int silk_inotify_init(void) { return inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }
int silk_inotify_watch_directory(int fd, const char *path) {
    return inotify_add_watch(fd, path, IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_MOVED_FROM);
}
const uint32_t SILK_IN_CREATE = IN_CREATE;
const uint32_t SILK_IN_DELETE = IN_DELETE;
const uint32_t SILK_IN_ATTRIB = IN_ATTRIB;
const uint32_t SILK_IN_MOVED_TO = IN_MOVED_TO;
const uint32_t SILK_IN_MOVED_FROM = IN_MOVED_FROM;
void *silk_mmap_shared(int fd, size_t length) {
    void *p = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

// The console guard's state: plain statics read by signal handlers (set before arming).
static int guard_tty = -1;
static int guard_mode = KD_TEXT;
static char guard_restore[128];
static size_t guard_restore_length;
static atomic_int guard_armed;
static atomic_int guard_done;
static int guard_installed;


// The display guard's state (KMS): the SETCRTC argument that puts back the CRTC Silk replaced.
// The layout is the kernel's uapi struct drm_mode_crtc / drm_mode_modeinfo (stable ABI), declared
// here so that CSilkLinux needs no libdrm headers.
struct silk_drm_mode_modeinfo { uint32_t clock; uint16_t hdisplay, hsync_start, hsync_end, htotal, hskew;
    uint16_t vdisplay, vsync_start, vsync_end, vtotal, vscan; uint32_t vrefresh, flags, type; char name[32]; };
struct silk_drm_mode_crtc { uint64_t set_connectors_ptr; uint32_t count_connectors, crtc_id, fb_id, x, y,
    gamma_size, mode_valid; struct silk_drm_mode_modeinfo mode; };
_Static_assert(sizeof(struct silk_drm_mode_modeinfo) == 68, "drm_mode_modeinfo is 68 bytes");
_Static_assert(sizeof(struct silk_drm_mode_crtc) == 104, "drm_mode_crtc is 104 bytes");
#define SILK_DRM_IOCTL_MODE_SETCRTC _IOWR('d', 0xA2, struct silk_drm_mode_crtc)
static int display_fd = -1;
static struct silk_drm_mode_crtc display_crtc;
static uint32_t display_connectors[8];
static atomic_int display_armed;

int silk_display_guard_restore(void) {
    if (!atomic_exchange(&display_armed, 0)) return 1;
    int saved = errno;
    display_crtc.set_connectors_ptr = (uint64_t)(uintptr_t)display_connectors;
    int r;
    do { r = ioctl(display_fd, SILK_DRM_IOCTL_MODE_SETCRTC, &display_crtc); } while (r == -1 && (errno == EINTR || errno == EAGAIN));
    if (r == 0) errno = saved;
    return r;
}
void silk_display_guard_disarm(void) { atomic_store(&display_armed, 0); }

void silk_console_guard_restore(void) {
    if (!atomic_exchange(&guard_armed, 0)) return;
    int saved = errno;
    if (guard_tty >= 0) {
        ioctl(guard_tty, KDSETMODE, (unsigned long)guard_mode);
        if (guard_restore_length) { ssize_t n = write(guard_tty, guard_restore, guard_restore_length); (void)n; }
    }
    atomic_store(&guard_done, 1);
    errno = saved;
}
int silk_console_guard_restored(void) { return atomic_load(&guard_done); }

static void guard_fatal(int sig) {
    if (silk_display_guard_restore() == 0) {
        // One line on stderr (write(2) is async-signal-safe), so a crash's restore is visible.
        static const char note[] = "kms: previous CRTC restored after a fatal signal\n";
        ssize_t n = write(2, note, sizeof note - 1); (void)n;
    }
    silk_console_guard_restore();
    signal(sig, SIG_DFL);  // SA_RESETHAND did this already; kept for clarity
    raise(sig);
}
static void guard_install(void);
static void guard_atexit(void) { silk_display_guard_restore(); silk_console_guard_restore(); }

int silk_console_guard_arm(int tty_fd, int kd_mode, const char *restore, size_t restore_length) {
    if (restore_length > sizeof guard_restore) { errno = EINVAL; return -1; }
    guard_tty = tty_fd;
    guard_mode = kd_mode;
    memcpy(guard_restore, restore, restore_length);
    guard_restore_length = restore_length;
    atomic_store(&guard_done, 0);
    atomic_store(&guard_armed, 1);
    guard_install();
    return 0;
}

int silk_display_guard_arm(int drm_fd, uint32_t crtc_id, uint32_t fb_id, uint32_t x, uint32_t y,
                           const uint32_t *connectors, uint32_t connector_count,
                           const void *mode, size_t mode_size) {
    if (connector_count > 8 || (mode && mode_size != sizeof(struct silk_drm_mode_modeinfo))) { errno = EINVAL; return -1; }
    atomic_store(&display_armed, 0);
    memset(&display_crtc, 0, sizeof display_crtc);
    display_fd = drm_fd;
    display_crtc.crtc_id = crtc_id; display_crtc.fb_id = fb_id; display_crtc.x = x; display_crtc.y = y;
    display_crtc.count_connectors = connector_count;
    if (connector_count) memcpy(display_connectors, connectors, connector_count * sizeof(uint32_t));
    if (mode) { memcpy(&display_crtc.mode, mode, mode_size); display_crtc.mode_valid = 1; }
    atomic_store(&display_armed, 1);
    guard_install();
    return 0;
}

static void guard_install(void) {
    if (!guard_installed) {
        guard_installed = 1;
        atexit(guard_atexit);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = guard_fatal;
        sa.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) sigaction(fatal[i], &sa, NULL);
    }
}

#include <dlfcn.h>
#include <malloc.h>

int silk_heap_info(size_t *in_use, size_t *mapped, size_t *free_bytes) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    typedef struct mallinfo2 (*mallinfo2_fn)(void);
    mallinfo2_fn fn = (mallinfo2_fn)dlsym(RTLD_DEFAULT, "mallinfo2");
    if (!fn) return -1;
    struct mallinfo2 m = fn();
    *in_use = m.uordblks; *mapped = m.hblkhd; *free_bytes = m.fordblks;
    return 0;
#else
    (void)in_use; (void)mapped; (void)free_bytes;
    return -1;
#endif
}
