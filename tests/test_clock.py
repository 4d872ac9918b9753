"""webapp/clock.py: the app's one clock, which tests advance instead of sleeping (issue 25)."""

import datetime
import math

import pytest

from webapp import clock as app_clock


def test_advancing_moves_every_reading_forward_by_the_same_seconds(clock):
    before = (clock.now(), clock.now_ms(), clock.monotonic(), clock.utcnow())
    assert clock.advance(90) == 90.0 == clock.offset()
    after = (clock.now(), clock.now_ms(), clock.monotonic(), clock.utcnow())
    assert after[0] - before[0] >= 90
    assert after[1] - before[1] >= 90_000
    assert after[2] - before[2] >= 90
    assert after[3] - before[3] >= datetime.timedelta(seconds=90)
    assert after[3].tzinfo == datetime.UTC


def test_advances_add_up_and_reset_puts_the_real_clocks_back(clock):
    clock.advance(1.5)
    clock.advance(2)
    assert clock.offset() == 3.5
    clock.reset()
    assert clock.offset() == 0.0


@pytest.mark.parametrize("bad", [-1, math.nan, math.inf, "5", None, True])
def test_time_never_goes_back_and_bad_seconds_are_refused(clock, bad):
    with pytest.raises(ValueError, match="forward by a finite number of seconds"):
        clock.advance(bad)
    assert clock.offset() == 0.0


def test_the_fixture_is_the_apps_clock_and_each_test_starts_on_the_real_one(clock):
    assert clock is app_clock and clock.offset() == 0.0
