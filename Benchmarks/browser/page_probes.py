"""What the browser benchmark runs inside the page (through selenium's execute_script), and the statistics it makes
of what comes back. Only web platform APIs of Chromium: the User Timing mark the dashboard emits, requestAnimationFrame,
the Event Timing API and `performance.memory`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

FIRST_RENDER_MARK = "keyscope:first-tree-render"
# Chromium's event timing never reports an event shorter than this (16 ms is the lowest threshold it accepts).
EVENT_THRESHOLD_MS = 16
# The events of a keystroke that Event Timing reports.
KEY_EVENTS = {"keydown", "keypress", "keyup"}
# One frame at 60 Hz, what headless Chromium paints at.
FRAME_MS = 1000 / 60

# The end of the dashboard's first tree render, in ms since navigation start (null while not emitted). A mark's
# time is its startTime; a measure ends at startTime + duration.
READ_FIRST_RENDER = f"""
const entry = performance.getEntriesByName('{FIRST_RENDER_MARK}')[0];
return entry ? entry.startTime + entry.duration : null;
"""

READ_NAVIGATION = """
const nav = performance.getEntriesByType('navigation')[0];
return nav ? {domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd} : null;
"""

# Starts recording the timestamps of animation frames for `arguments[0]` ms into window.__keyscopeBenchFrames.
START_FRAMES = """
const until = performance.now() + arguments[0];
const frames = window.__keyscopeBenchFrames = [];
function frame(time) {
  frames.push(time);
  if (time < until) requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
"""
READ_FRAMES = "return window.__keyscopeBenchFrames || [];"

# The input keystrokes go into: the dashboard's search when it has one, else a probe input added for the purpose
# (it measures the same thing, how long the busy page takes to handle a key and paint). Returns which.
FIND_INPUT = """
let input = document.querySelector('[data-testid="search"]') || document.querySelector('input[type="search"]');
if (input) return [input, 'the dashboard\\'s search'];
input = document.createElement('input');
input.id = 'keyscope-bench-probe';
input.style.cssText = 'position:fixed;top:4px;right:4px;z-index:2147483647;width:120px';
document.body.append(input);
return [input, 'a probe input (the page has no [data-testid="search"] nor input[type="search"])'];
"""

# Starts collecting Event Timing entries (interactions of 16 ms or more) into window.__keyscopeBenchEvents.
START_EVENTS = f"""
if (!PerformanceObserver.supportedEntryTypes.includes('event')) return false;
const events = window.__keyscopeBenchEvents = [];
new PerformanceObserver((list) => {{
  for (const e of list.getEntries()) events.push({{name: e.name, duration: e.duration, id: e.interactionId}});
}}).observe({{type: 'event', durationThreshold: {EVENT_THRESHOLD_MS}}});
return true;
"""
READ_EVENTS = "return window.__keyscopeBenchEvents || [];"

# The JS heap in use, in bytes, after a full collection when the browser exposes gc() (--js-flags=--expose-gc);
# null without performance.memory.
READ_HEAP = """
if (typeof gc === 'function') gc();
return performance.memory ? [performance.memory.usedJSHeapSize, typeof gc === 'function'] : null;
"""

# The dashboard's own counters, copied out (null when it exposes none).
READ_STATS = """
const stats = window.keyscopeStats;
if (stats === undefined || stats === null) return null;
return JSON.parse(JSON.stringify(typeof stats === 'function' ? stats() : stats));
"""


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of an ascending list."""
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass
class FrameStats:
    frames: int
    seconds: float
    p50: float
    p95: float
    p99: float
    max: float
    dropped_share: float

    def __str__(self) -> str:
        return (
            f"p50 {self.p50:.1f}  p95 {self.p95:.1f}  p99 {self.p99:.1f}  max {self.max:.1f} ms; "
            f"dropped {self.dropped_share:.1%} ({self.frames} frames in {self.seconds:.1f} s)"
        )


def frame_stats(timestamps: list[float]) -> FrameStats | None:
    """Intervals between animation frames. A frame is dropped for every 60 Hz vsync an interval spans beyond its
    first: the dropped share is dropped / (frames painted + dropped)."""
    intervals = sorted(b - a for a, b in zip(timestamps, timestamps[1:]))
    if not intervals:
        return None
    vsyncs = [max(1, round(interval / FRAME_MS)) for interval in intervals]
    dropped = sum(v - 1 for v in vsyncs)
    return FrameStats(
        frames=len(intervals),
        seconds=(timestamps[-1] - timestamps[0]) / 1000,
        p50=percentile(intervals, 0.50),
        p95=percentile(intervals, 0.95),
        p99=percentile(intervals, 0.99),
        max=intervals[-1],
        dropped_share=dropped / sum(vsyncs),
    )


def ranked_keystrokes(events: list[dict], keys: int) -> list[float | None]:
    """The durations of `keys` keystrokes in ascending order, each the longest event of its interaction (keydown,
    keypress, keyup…). Interactions under 16 ms are never reported: they are None, at the bottom of the ranking."""
    longest: dict[int, float] = {}
    for event in events:
        # Only the keys' own events: the click that focused the input is an interaction too.
        if event.get("id") and event["name"] in KEY_EVENTS:
            longest[event["id"]] = max(longest.get(event["id"], 0.0), event["duration"])
    reported = sorted(longest.values())
    return [None] * max(0, keys - len(reported)) + reported


def input_latency(events: list[dict], keys: int) -> str:
    """p50/p95/max of `keys` keystrokes (see ranked_keystrokes); those under 16 ms show as "<16"."""
    ranked = ranked_keystrokes(events, keys)
    reported = [value for value in ranked if value is not None]

    def show(value: float | None) -> str:
        return f"<{EVENT_THRESHOLD_MS}" if value is None else f"{value:.0f}"

    if not ranked:
        return "no keystrokes"
    worst = ranked[-1]
    return (
        f"p50 {show(percentile(ranked, 0.5))}  p95 {show(percentile(ranked, 0.95))}  max {show(worst)} ms "
        f"({keys} keys, {len(reported)} of them {EVENT_THRESHOLD_MS} ms or more)"
    )


# Counters of window.keyscopeStats that only grow: quoted per second. The others are levels (entriesKept stops at
# the page's log limit once it is full), quoted as before → after.
RATE_COUNTERS = {"seq", "entriesReceived", "framesRendered"}


def stats_rates(before: dict, after: dict, seconds: float) -> str:
    """The numeric counters of window.keyscopeStats that moved: rates per second, levels as before → after."""
    moved = []
    for key, value in after.items():
        start = before.get(key)
        if isinstance(value, (int, float)) and isinstance(start, (int, float)) and value != start:
            if key in RATE_COUNTERS:
                moved.append(f"{key} {(value - start) / seconds:,.0f}/s")
            else:
                moved.append(f"{key} {start:,} → {value:,}")
    return ", ".join(moved) or f"no counter moved ({', '.join(sorted(after)) or 'no fields'})"


def mib(byte_count: float) -> str:
    return f"{byte_count / (1 << 20):.1f} MiB"
