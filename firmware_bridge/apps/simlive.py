"""``tabletop sim --serve/--broker``: a simulated game that people can watch.

The simulation journals to a file (a temporary one unless ``--journal`` names
one) and writes the live file beside it, exactly as the daemon does; the web
view and the publisher follow that file as they would a real board's. With
``--realtime`` the computer waits between moves, at a human pace.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
from pathlib import Path
from typing import Any, TextIO

from ..runtime.live import LiveFile
from ..runtime.transcript import print_move, result_line
from ..spectate.commands import need_web_extra

DEFAULT_PACE_S = 1.5


def realtime_pace(seconds: float) -> float:
    """The wait after each move that ``--realtime`` gives, checked: 0 or more seconds."""
    if not seconds >= 0 or seconds == float("inf"):
        raise ValueError(
            f"--realtime {seconds:g}: give the seconds to wait after each move, "
            "0 or more (e.g. --realtime 1.5)"
        )
    return seconds


class Cancelled(Exception):
    """The watched game was ended early (its broker refused the board's login)."""


class SimThread(threading.Thread):
    """Plays one simulated game to its end in the background."""

    def __init__(
        self,
        args: argparse.Namespace,
        journal: Path,
        pace_s: float | None,
        out: TextIO | None = None,
    ) -> None:
        super().__init__(name="tabletop-sim", daemon=True)
        self.args = args
        self.out = out
        """Where the transcript goes (None: nowhere)."""
        self.journal = journal
        self.pace_s = pace_s
        self.error: BaseException | None = None
        self.ready = threading.Event()
        self.cancel = threading.Event()
        """Set to end the game early (after its current move): nothing is left running."""
        self.final: dict[str, Any] | None = None

    def _paced(self, _played: Any) -> None:
        """After each move: wait the pace (``--realtime``), unless the game is ended."""
        if self.pace_s:
            self.cancel.wait(self.pace_s)
        if self.cancel.is_set():
            raise Cancelled

    def run(self) -> None:
        from ..sim.runner import SimOptions, Simulation
        from .setup_file import game_options

        args = self.args
        try:
            options = game_options(
                args.game, args.option, getattr(args, "setup", None), args.players, args.words
            )
            sim = Simulation(
                SimOptions(
                    game=args.game,
                    players=args.players,
                    seed=args.seed if args.seed is not None else 1,
                    profile=args.profile,
                    journal=self.journal,
                    options=options,
                    set_up_by_hand=True,  # the computer's hand sets the table up
                )
            )
        except BaseException as exc:
            self.error = exc
            self.ready.set()
            return
        try:
            sim.listeners.append(LiveFile(self.journal, sim.session.game_id))
            out = self.out
            if out is not None:
                game = sim.session.game
                sim.commits.append(lambda played: print_move(played, game.seat_name, out))
            sim.commits.append(self._paced)
            sim.start()
            self.ready.set()
            sim.play_computer()
            self.final = sim.final()
            if out is not None:
                print(result_line(self.final), file=out, flush=True)
                if self.args.serve:
                    print("tabletop: the page stays up; Ctrl-C stops it", file=out, flush=True)
        except BaseException as exc:
            self.error = exc
        finally:
            self.ready.set()
            sim.close()


def run_watched(args: argparse.Namespace, out: TextIO) -> int:
    """Play the simulated game in the background while serving and/or publishing it."""
    from ..spectate.wsgi import parse_listen

    need_web_extra()
    if args.serve:
        parse_listen(args.serve, "--serve")
    if args.realtime is not None:
        realtime_pace(args.realtime)
    broker = None
    board_name = args.board_name
    if args.broker:
        from ..spectate.mqtt import check_board_name, club_settings

        club = club_settings(getattr(args, "club_config", None), args.broker, board_name, None)
        broker, board_name = club.broker, club.board_name
        if not board_name:
            raise ValueError("--broker needs --board-name NAME: the name the club sees")
        check_board_name(board_name)
    with tempfile.TemporaryDirectory(prefix="tabletop-sim-") as tmp:
        journal = args.journal or Path(tmp) / "journal.sqlite"
        pace = args.realtime if args.realtime else None
        sim = SimThread(args, journal, pace, out)
        sim.start()
        sim.ready.wait()
        if sim.error is not None:
            raise sim.error
        publisher = None
        if broker is not None:
            from ..spectate.publish import Publisher

            publisher = Publisher(journal, broker, board_name)
            publisher.start()
        try:
            if args.serve:
                from ..spectate.follow import Follower
                from ..spectate.server import BoardView, web_app
                from ..spectate.wsgi import serve

                print(
                    f"tabletop: watch at http://{args.serve}/ (Ctrl-C stops it)",
                    file=out,
                    flush=True,
                )
                serve(web_app(BoardView(Follower(journal, args.board_name))), args.serve)
            else:
                while sim.is_alive() and (publisher is None or publisher.refused is None):
                    sim.join(0.2)
                if publisher is not None and publisher.refused is not None:
                    sim.cancel.set()
                    sim.join(10)
                    raise ValueError(publisher.refused)
        finally:
            if publisher is not None:
                publisher.stop(flush_s=0.0 if publisher.refused else 10.0)
        if sim.error is not None and not isinstance(sim.error, KeyboardInterrupt | Cancelled):
            raise sim.error
    return 0
