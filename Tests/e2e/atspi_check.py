#!/usr/bin/python3
"""AT-SPI2 client for Tests/e2e/accessibility.sh: finds the kiosk demo on the accessibility bus,
walks its tree, presses "Next" through the Action interface and checks the events that follow,
then waits for the focus events of the Tab presses the demo's input script makes.

Prints one "ok:" or "FAIL:" line per check; exits 1 when any failed."""
import sys
import time

import pyatspi
from gi.repository import GLib

APP = sys.argv[1] if len(sys.argv) > 1 else "silk"
failures = 0


def ok(msg):
    print("ok:   " + msg, flush=True)


def bad(msg):
    global failures
    failures += 1
    print("FAIL: " + msg, flush=True)


def check(cond, msg):
    (ok if cond else bad)(msg)
    return cond


events = []


def on_event(e):
    try:
        name = e.source.name
    except Exception:
        name = None
    events.append((e.type, e.detail1, name))


def pump(until, seconds):
    """Runs the GLib loop (which delivers the events) until until() or the time is up."""
    ctx = GLib.MainContext.default()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        while ctx.pending():
            ctx.iteration(False)
        if until():
            return True
        time.sleep(0.02)
    return until()


def find_app():
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is not None and app.name == APP:
            return app
    return None


def walk(acc):
    yield acc
    for child in acc:
        if child is not None:
            yield from walk(child)


start = time.monotonic()
app = None
while app is None and time.monotonic() - start < 20:
    app = find_app()
    if app is None:
        time.sleep(0.1)
if not check(app is not None, f"the application {APP!r} is on the accessibility bus"):
    sys.exit(1)
print(f"      found after {time.monotonic() - start:.2f} s", flush=True)

for kind in ["object:state-changed:selected", "object:state-changed:focused", "object:selection-changed",
             "object:property-change:accessible-name", "object:text-changed", "focus:"]:
    pyatspi.Registry.registerEventListener(on_event, kind)

check(app.getRoleName() == "application", "the application object has the application role")
frames = [c for c in app if c is not None]
if not check(len(frames) == 1 and frames[0].getRoleName() == "frame", "one window, a frame"):
    sys.exit(1)
frame = frames[0]


def loaded():
    # The app registers before its first layout: wait (as a screen reader would, for
    # children-changed) until the list has loaded rows.
    return any(a.getRoleName() == "list" and a.childCount > 0 for a in walk(frame))
t0 = time.monotonic()
check(pump(loaded, 20), f"the list's rows appear ({time.monotonic() - t0:.2f} s)")
everything = list(walk(frame))
buttons = {a.name: a for a in everything if a.getRoleName() == "push button"}
for name in ["◀ Previous", "Next ▶", "Details"]:
    check(name in buttons, f"button {name!r} found by name")
lists = [a for a in everything if a.getRoleName() == "list"]
if check(len(lists) == 1, "one list (the exhibits)"):
    lst = lists[0]
    attrs = dict(a.split(":", 1) for a in lst.getAttributes())
    loaded = lst.childCount
    check(attrs.get("item-count") == "40", f"the list reports 40 items (item-count {attrs.get('item-count')})")
    check(0 < loaded < 40, f"the list exposes only its loaded rows ({loaded})")
    first = lst.getChildAtIndex(0)
    check(first is not None and first.getRoleName() == "list item" and first.name.startswith("1. "),
          f"its first row is a list item named {first.name if first else None!r}")
status = [a for a in everything if a.getRoleName() == "label" and a.name.startswith("Selected: ")]
check(len(status) == 1 and status[0].name == "Selected: Seven-spot ladybird",
      f"the status label reads {status[0].name if status else None!r}")
tiles = [a for a in everything if a.getRoleName() == "push button" and a.getState().contains(pyatspi.STATE_SELECTED)]
check([t.name for t in tiles] == ["Seven-spot ladybird"], f"the selected tile is {[t.name for t in tiles]}")
if status:
    text = status[0].queryText()
    check(text.getText(0, -1) == status[0].name, "the label's Text interface gives its name")

nxt = buttons.get("Next ▶")
if nxt is not None:
    action = nxt.queryAction()
    names = [action.getName(i) for i in range(action.nActions)]
    check(names == ["click"], f"Next has one action, click ({names})")
    t0 = time.monotonic()
    check(action.doAction(0), "doAction(click) on Next returns true")

    def selection_seen():
        kinds = {(t, d, n) for t, d, n in events}
        return ("object:state-changed:selected", 1, "Monsoon leaves") in kinds and \
            any(t == "object:selection-changed" for t, _, _ in events) and \
            any(t.startswith("object:property-change:accessible-name") and n == "Selected: Monsoon leaves" for t, _, n in events)
    seen = pump(selection_seen, 10)
    check(seen, f"selection events after Next: the tile 'Monsoon leaves' selected, selection-changed, "
                f"the status label renamed ({time.monotonic() - t0:.2f} s)")
    if not seen:
        print("      events:", events[:20], flush=True)
    check(any(t == "object:state-changed:selected" and d == 0 and n == "Seven-spot ladybird" for t, d, n in events),
          "the previous tile reports it is no longer selected")
    check(any(t.startswith("object:text-changed:insert") and n == "Selected: Monsoon leaves" for t, _, n in events),
          "the status label reports its new text (text-changed:insert)")
    relabelled = [a for a in walk(frame) if a.getRoleName() == "label" and a.name.startswith("Selected: ")]
    check(relabelled and relabelled[0].name == "Selected: Monsoon leaves", "walking again shows the new label")

# The demo's input script presses Tab every 0.7 s: each press moves focus to the next control.
def two_focus_moves():
    gained = [n for t, d, n in events if t == "object:state-changed:focused" and d == 1]
    return len(gained) >= 2 and any(t.startswith("focus:") for t, _, _ in events)
t0 = time.monotonic()
seen = pump(two_focus_moves, 15)
gained = [n for t, d, n in events if t == "object:state-changed:focused" and d == 1]
check(seen, f"Tab presses arrive as focus events ({gained[:4]} in {time.monotonic() - t0:.2f} s)")
focused = [a.name for a in walk(frame) if a.getState().contains(pyatspi.STATE_FOCUSED)]
check(len(focused) == 1, f"exactly one element is focused now ({focused})")

print(f"atspi-check: {'all passed' if failures == 0 else f'{failures} failed'} in {time.monotonic() - start:.2f} s", flush=True)
sys.exit(1 if failures else 0)
