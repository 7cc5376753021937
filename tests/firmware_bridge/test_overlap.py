"""The frame is drawn on another thread while the journal's commit waits."""

from __future__ import annotations

import threading
import time

import pytest

from firmware_bridge.runtime.overlap import while_waiting


def test_the_work_runs_while_the_caller_waits() -> None:
    started = threading.Event()

    def wait() -> None:
        # Returns only once the work has started: the two run at the same time.
        assert started.wait(timeout=10), "the work did not start while this waited"

    def work() -> str:
        started.set()
        return threading.current_thread().name

    name = while_waiting(wait, work)
    assert name != threading.current_thread().name
    assert name.startswith("tabletop-frame")


def test_when_the_wait_fails_the_work_is_finished_before_the_error_goes_on() -> None:
    finished = threading.Event()
    release = threading.Event()

    def work() -> None:
        release.wait(timeout=10)
        time.sleep(0.05)  # still drawing when the error is raised
        finished.set()

    def wait() -> None:
        release.set()
        raise OSError("the sync failed")

    with pytest.raises(OSError, match="the sync failed"):
        while_waiting(wait, work)
    assert finished.is_set()


def test_an_error_in_the_work_reaches_the_caller() -> None:
    def work() -> None:
        raise ValueError("cannot draw")

    with pytest.raises(ValueError, match="cannot draw"):
        while_waiting(lambda: None, work)
