// vtouch: a real kernel touchscreen made with /dev/uinput, for the QEMU framebuffer e2e test
// (QEMU 7.2 has no virtio multitouch device, and its tablet is an absolute pointer, not a touch).
// It registers a direct (INPUT_PROP_DIRECT) multitouch device — ABS_MT_SLOT, ABS_MT_TRACKING_ID,
// ABS_MT_POSITION_X/Y and BTN_TOUCH, as a panel's driver reports them — then replays commands read
// from stdin, one a line, in screen pixels of a W×H panel:
//
//   tap X Y               finger down at (X, Y), 80 ms, up
//   drag X0 Y0 X1 Y1 N MS down at (X0, Y0), N moves MS ms apart to (X1, Y1), up
//   quit                  (or end of input) removes the device
//
//   vtouch W H            prints "vtouch: ready" once the device exists, "vtouch: done CMD" per command
//
// Axes are 0…32767 over the panel, so the reader's normalising (not a 1:1 pixel range) is tested.
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int fd = -1, width, height, tracking = 1;

static void die(const char *what) {
    fprintf(stderr, "vtouch: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void emit(int type, int code, int value) {
    struct input_event e;
    memset(&e, 0, sizeof e);
    e.type = type; e.code = code; e.value = value;
    if (write(fd, &e, sizeof e) != (ssize_t)sizeof e) die("write");
}

static void sleep_ms(int ms) {
    struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

static int axis(int v, int size) { return (int)((long)v * 32767 / size); }

static void position(int x, int y) {
    emit(EV_ABS, ABS_MT_POSITION_X, axis(x, width));
    emit(EV_ABS, ABS_MT_POSITION_Y, axis(y, height));
    emit(EV_ABS, ABS_X, axis(x, width));
    emit(EV_ABS, ABS_Y, axis(y, height));
}

static void down(int x, int y) {
    emit(EV_ABS, ABS_MT_SLOT, 0);
    emit(EV_ABS, ABS_MT_TRACKING_ID, tracking++);
    position(x, y);
    emit(EV_KEY, BTN_TOUCH, 1);
    emit(EV_SYN, SYN_REPORT, 0);
}

static void move(int x, int y) {
    position(x, y);
    emit(EV_SYN, SYN_REPORT, 0);
}

static void up(void) {
    emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    emit(EV_KEY, BTN_TOUCH, 0);
    emit(EV_SYN, SYN_REPORT, 0);
}

static void abs_axis(int code, int max) {
    struct uinput_abs_setup a;
    memset(&a, 0, sizeof a);
    a.code = code; a.absinfo.minimum = 0; a.absinfo.maximum = max;
    if (ioctl(fd, UI_ABS_SETUP, &a) < 0) die("UI_ABS_SETUP");
}

int main(int argc, char **argv) {
    if (argc != 3 || (width = atoi(argv[1])) <= 0 || (height = atoi(argv[2])) <= 0 || width > 65535 || height > 65535) {
        fprintf(stderr, "usage: vtouch WIDTH HEIGHT (commands on stdin: tap X Y | drag X0 Y0 X1 Y1 N MS | quit)\n");
        return 2;
    }
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) die("/dev/uinput");
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 || ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH) < 0 ||
        ioctl(fd, UI_SET_EVBIT, EV_ABS) < 0 || ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT) < 0) die("UI_SET_*");
    int axes[] = { ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y };
    for (unsigned i = 0; i < sizeof axes / sizeof axes[0]; i++)
        if (ioctl(fd, UI_SET_ABSBIT, axes[i]) < 0) die("UI_SET_ABSBIT");
    abs_axis(ABS_X, 32767); abs_axis(ABS_Y, 32767);
    abs_axis(ABS_MT_SLOT, 9); abs_axis(ABS_MT_TRACKING_ID, 65535);
    abs_axis(ABS_MT_POSITION_X, 32767); abs_axis(ABS_MT_POSITION_Y, 32767);
    struct uinput_setup s;
    memset(&s, 0, sizeof s);
    s.id.bustype = BUS_VIRTUAL; s.id.vendor = 0x5e1c; s.id.product = 0x0001;
    snprintf(s.name, sizeof s.name, "Silk e2e vtouch");
    if (ioctl(fd, UI_DEV_SETUP, &s) < 0) die("UI_DEV_SETUP");
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");
    printf("vtouch: ready\n"); fflush(stdout);

    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        int x0, y0, x1, y1, n, ms;
        if (sscanf(line, "tap %d %d", &x0, &y0) == 2) {
            down(x0, y0); sleep_ms(80); up();
        } else if (sscanf(line, "drag %d %d %d %d %d %d", &x0, &y0, &x1, &y1, &n, &ms) == 6 && n > 0 && n <= 1000 && ms >= 0 && ms <= 1000) {
            down(x0, y0);
            for (int i = 1; i <= n; i++) { sleep_ms(ms); move(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n); }
            sleep_ms(ms); up();
        } else if (strncmp(line, "quit", 4) == 0) {
            break;
        } else {
            line[strcspn(line, "\n")] = 0;
            printf("vtouch: unknown command \"%s\"\n", line); fflush(stdout);
            continue;
        }
        line[strcspn(line, "\n")] = 0;
        printf("vtouch: done %s\n", line); fflush(stdout);
    }
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return 0;
}
