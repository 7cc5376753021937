"""Markup through a board's plan: the letter ``values`` are checked, drawn escaped, and
what markup could still do in a page (restyle it, frame another, send it elsewhere)
is forbidden by the pages' policy and by the script that puts new parts in place."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.spectate.club import Club
from firmware_bridge.spectate.page import card_html
from firmware_bridge.spectate.svg import board_svg
from tests.spectate.test_hub_attacks import _get, _until
from tests.spectate.tools import (
    board_state,
    chromium,
    free_port,
    get_json,
    mosquitto,
    stop,
    tabletop,
    wait_for_port,
)

MARKUP = {
    "A": "<style>body{display:none}</style>",
    "B": '<iframe srcdoc="<p>elsewhere</p>"></iframe>',
    "C": '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/">',
}
"""The probe's letter values: each one markup, none a number."""


def _plan(values: Any) -> dict[str, Any]:
    return {
        "journal_game": 1,
        "geometry": {
            "cols": 3,
            "rows": 1,
            "cells": {"a1": [0, 0], "b1": [1, 0], "c1": [2, 0]},
            "values": values,
        },
    }


def _tiles() -> dict[str, Any]:
    cells = zip(("a1", "b1", "c1"), "ABC", strict=True)
    return {c: {"kind": "tile", "label": letter} for c, letter in cells}


def test_a_plan_whose_values_are_not_small_whole_numbers_is_refused() -> None:
    club = Club()
    for values in (MARKUP, {"A": 1.5}, {"A": True}, {"A": -1}, {"A": 100}, {"ABCDEFG": 1}, []):
        assert club.take("tabletop/t/board", json.dumps(_plan(values)).encode()) is None
        assert "value" in club.refused["t"].last, (values, club.refused["t"].last)
    assert club.refused["t"].count == 7
    assert club.take("tabletop/t/board", json.dumps(_plan({"A": 1, "?": 0})).encode()) == "t"


def test_values_that_were_never_checked_are_still_never_drawn_as_markup() -> None:
    geo = _plan(MARKUP)["geometry"]
    svg = board_svg(geo, _tiles(), ["Red", "Green"])
    for tag in ("<style", "<iframe", "<meta"):
        assert tag not in svg
    card = card_html("t", board_state(layout=_tiles()), geo, "/board/t")
    assert "<meta" not in card and "<style" not in card


def test_the_hub_refuses_the_probes_plan_and_its_pages_carry_none_of_it(tmp_path: Path) -> None:
    with mosquitto() as broker:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        hub = tabletop("hub", "--broker", broker.url, "--listen", f"127.0.0.1:{port}")
        try:
            wait_for_port(port, 30, hub)
            client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="probe")
            client.connect("127.0.0.1", broker.port)
            client.loop_start()
            for topic, data in (
                ("tabletop/evil/board", _plan(MARKUP)),
                ("tabletop/evil/state", board_state(layout=_tiles())),
            ):
                # Retained, as a board sends them: the hub takes them whenever it subscribes.
                client.publish(topic, json.dumps(data), qos=1, retain=True).wait_for_publish(10)
            client.disconnect()
            client.loop_stop()
            _until(
                "the plan refused",
                lambda: "evil" in get_json(base + "/diagnostics.json")["by_board"],
            )
            assert "value" in get_json(base + "/diagnostics.json")["by_board"]["evil"]["last"]
            for path in ("/", "/board/evil", "/boards.json"):
                status, headers, page = _get(base + path)
                assert status == 200
                assert "<meta http-equiv" not in page and "<iframe" not in page
            policy = headers["Content-Security-Policy"]
            directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
            assert directives["style-src"] == "'self'"
            assert directives["frame-src"] == "'none'"
            assert directives["object-src"] == "'none'"
            status, headers, css = _get(base + "/app.css")
            assert status == 200 and headers["Content-Type"].startswith("text/css")
            assert ".card{" in css
        finally:
            stop(hub)


SERVER = textwrap.dedent(
    """
    import sys
    from firmware_bridge.spectate.events import Changes
    from firmware_bridge.spectate.page import board_page
    from firmware_bridge.spectate.wsgi import WebApp, html, serve

    EVIL = {evil!r}
    changes = Changes()
    now = {{"board": "<p>fine</p>", "panel": "<p id=calm>calm</p>", "moves": ""}}

    def page(request):
        return html(board_page("probe", "/events", now))

    def events(request):
        changes.bump()
        return app.events(request, changes, lambda: {{**now, "board": EVIL}})

    app = WebApp([("/", page), ("/events", events)], 4)
    serve(app, sys.argv[1])
    """
)


def test_markup_streamed_to_an_open_page_neither_restyles_frames_nor_moves_it() -> None:
    """Were markup ever to reach a page's stream, the page stays as it is, where it is."""
    evil = "<b id=arrived>new</b>" + "".join(MARKUP.values())
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER.format(evil=evil), f"127.0.0.1:{port}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_port(port, 30, server)
        with chromium() as browser:
            browser.get(f"http://127.0.0.1:{port}/")
            end = time.monotonic() + 20
            while time.monotonic() < end:
                if browser.execute_script("return !!document.getElementById('arrived')"):
                    break
                time.sleep(0.05)
            else:
                raise AssertionError("the streamed part never arrived")
            time.sleep(1.5)  # the refresh's 0 s, and then some
            assert browser.current_url == f"http://127.0.0.1:{port}/"
            found = browser.execute_script(
                "return {frames: document.querySelectorAll('iframe').length,"
                " metas: document.querySelectorAll('meta[http-equiv]').length,"
                " styles: document.querySelectorAll('style').length,"
                " shown: getComputedStyle(document.body).display,"
                " calm: getComputedStyle(document.getElementById('calm')).color}"
            )
            assert found["frames"] == 0 and found["metas"] == 0 and found["styles"] == 0
            assert found["shown"] != "none"
            # The page's own style sheet still applies (served as /app.css).
            assert (
                browser.execute_script("return getComputedStyle(document.body).backgroundColor")
                == "rgb(250, 247, 240)"
            )
    finally:
        stop(server)
