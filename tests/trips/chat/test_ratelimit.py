"""The per-connection frame counter the consumer limits on."""

from trips.web.ratelimit import SlidingWindow


def test_counts_frames_inside_the_window_only():
    now = [100.0]
    window = SlidingWindow(seconds=10, clock=lambda: now[0])
    assert [window.hit() for _ in range(3)] == [1, 2, 3]
    now[0] += 9.9
    assert window.hit() == 4
    now[0] += 0.2  # the first three are now more than 10 s old
    assert window.hit() == 2
