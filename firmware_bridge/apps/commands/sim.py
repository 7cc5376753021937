"""The simulation commands: ``tabletop sim`` and ``tabletop resume`` (a journal's unfinished game
played on in simulation)."""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ...remote.options import wants_remote
from ...runtime.live import LiveFile
from ...runtime.transcript import print_move, print_refusal, result_line, waiting_line
from ..simlive import realtime_pace, run_watched

if TYPE_CHECKING:
    from games.core import Game


def _read_script(arg: str) -> Iterable[Any]:
    from ...sim.script import parse, parse_all

    if arg == "-":
        return parse(sys.stdin, "standard input")
    path = Path(arg)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read the script {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise ValueError(
            f"the script {path} is not UTF-8 text (line {line}: {exc.reason}); save it as UTF-8"
        ) from None
    return parse_all(text, str(path))


def cmd_sim(args: argparse.Namespace, out: TextIO) -> int:
    if wants_remote(args):
        from ..remote_menu import run_remote

        return run_remote(args, out)
    if getattr(args, "serve", None) or getattr(args, "broker", None):
        if getattr(args, "lobby", False) or not args.game:
            raise ValueError("--serve and --broker follow one game: give --game, not --lobby")
        return run_watched(args, out)
    # Start-up allocates much and frees little, so collecting during it is wasted
    # work (about a tenth of a cold start); collection resumes once the table is up.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _sim(args, out)
    finally:
        if collecting:
            gc.enable()


def _sim(args: argparse.Namespace, out: TextIO) -> int:
    from ...sim.runner import SimOptions, Simulation
    from ...sim.script import with_board_cells
    from ..checks import check_sim
    from ..setup_file import game_options

    lobby = bool(getattr(args, "lobby", False))
    script = _read_script(args.script) if args.script else None
    if lobby:
        _check_lobby(args, script is not None)
        options: dict[str, Any] = {}
    elif not args.game:
        raise ValueError("give --game GAME, or --lobby to choose it on the start menu")
    else:
        check_sim(args.game, args.profile, computer=script is None)
        pairs = [p for p in args.option if not p.startswith("level=")]
        options = game_options(args.game, pairs, args.setup, args.players, args.words)
    humans = _humans(getattr(args, "humans", None), args.players, script is not None)
    levels = _levels(args, humans, script is not None)
    if levels and humans is None:
        humans = frozenset()  # the computer's seats at the table: journaled with their levels
    realtime = getattr(args, "realtime", None)
    pace = realtime_pace(realtime) if realtime is not None else None
    if args.frames:
        _prepare_frames(args.frames)
    seed = args.seed if args.seed is not None else 1
    sim_options = SimOptions(
        game=args.game,
        players=args.players,
        seed=seed,
        profile=args.profile,
        journal=args.journal,
        frames=args.frames,
        options=options,
        resume=getattr(args, "resume", None),
        humans=humans,
        # The computer's hand sets a new game up as a table's players do; a script
        # builds on the set-up made.
        set_up_by_hand=script is None and not lobby,
        levels=levels or None,
        lobby=lobby,
        firmware=getattr(args, "firmware", "python"),
    )
    if isinstance(script, list) and args.journal is not None and not lobby:
        from ...sim.dry_run import check_script

        check_script(sim_options, script)
    sim = Simulation(sim_options)
    if sim_options.firmware != "python" and sim.profile.serial is None:
        sim.close()
        raise ValueError(
            f"--firmware {sim_options.firmware}: profile {sim.profile.name} is scanned from the "
            "Pi's GPIO and has no firmware; choose a Pico board's profile, e.g. double-take-pico"
        )
    if script is not None:
        script = with_board_cells(script, sim.profile.cells)
    if sim.resumed:
        moves = len(sim.session.game.history)
        print(
            f"tabletop: resuming the journal's game {sim.session.game_id} after "
            f"{moves} move{'s' if moves != 1 else ''}",
            file=sys.stderr,
        )
    if sim.resumed and getattr(args, "resume", None) is None:
        flags = (("--seed", args.seed), ("--option", args.option), ("--setup", args.setup))
        given = [flag for flag, used in flags if used]
        if given:
            print(
                f"tabletop: {' and '.join(given)} ignored: {args.journal} resumes game "
                f"{sim.session.game_id}, which keeps the seed and options it began with",
                file=sys.stderr,
            )
    try:
        if args.journal and not lobby:
            sim.listeners.append(LiveFile(args.journal, sim.session.game_id))
        if args.json:
            sim.listeners.append(lambda state: print(json.dumps(state), file=out, flush=True))
        elif lobby:
            print(f"Start menu on {sim.profile.name}, seed {seed}", file=out)
            sim.commits.append(lambda p: print_move(p, sim.session.game.seat_name, out))
        else:
            game, session = sim.session.game, sim.session
            line = seats_line(game, humans, script, levels)
            print(f"{game.title}, seed {seed}: {line}", file=out)
            for line in session.referee.view.opening():
                print(f"      {line}", file=out)
            sim.commits.append(lambda played: print_move(played, game.seat_name, out))
            session.refused.append(
                lambda reason: print_refusal(reason, session.pending_fixes(), out)
            )
        if pace is not None:
            sim.commits.append(lambda _played: time.sleep(pace))
        sim.start()
        # As the daemon does: what start-up built stays out of full collections.
        gc.collect()
        gc.freeze()
        gc.enable()
        if script is not None:
            sim.run_script(script)
        else:
            sim.play_computer()
        final = sim.final()
        if args.json:
            print(json.dumps(final), file=out, flush=True)
        else:
            print(result_line(final), file=out)
            if sim.session.game.outcome is None and not lobby:
                state = sim.session.state()
                print(waiting_line(sim.session.pending_fixes(), state.oled), file=out)
        serial_sim = getattr(sim, "serial_sim", None)
        if serial_sim is not None and serial_sim.figures is not None:
            print(f"tabletop: {serial_sim.figures.text()}", file=sys.stderr)
    finally:
        sim.close()
    return 0


def _check_lobby(args: argparse.Namespace, scripted: bool) -> None:
    """Refuse what the start menu chooses itself, and a menu nobody answers."""
    if not scripted:
        raise ValueError(
            "--lobby: the start menu is answered with the script's press lines: give --script"
        )
    flags = (("--option", args.option), ("--setup", args.setup), ("--humans", args.humans))
    given = [flag for flag, used in flags if used]
    if given:
        raise ValueError(
            f"--lobby: {' and '.join(given)} not taken: the options and who plays each seat "
            "are chosen on the start menu"
        )
    if args.profile is None and args.game is None:
        return
    if args.game is not None:
        from ...kits import find_kit

        find_kit(args.game)  # an unknown game stops here, with the list of games


def _humans(text: str | None, players: int, scripted: bool) -> frozenset[int] | None:
    """The seats ``--humans`` gives to people; None when it is not given."""
    from ...runtime.computer import parse_seats

    if text is None:
        return None
    if not scripted:
        raise ValueError(
            "--humans: the people's seats are played by a --script; without one the "
            "computer plays every seat (leave --humans out)"
        )
    return parse_seats(text, players)


def _levels(
    args: argparse.Namespace, humans: frozenset[int] | None, scripted: bool
) -> dict[int, int]:
    """The computer seats' levels from ``--level SEAT=N`` and ``--option level=N``."""
    from ...runtime.computer import parse_levels

    pairs = list(getattr(args, "level", None) or [])
    every = [p.partition("=")[2] for p in args.option or [] if p.startswith("level=")]
    if not pairs and not every:
        return {}
    if getattr(args, "lobby", False):
        raise ValueError(
            "--lobby: --level not taken: each seat's level is chosen on the start menu"
        )
    if scripted and humans is None:
        raise ValueError(
            "--level: the script moves for every seat; give --humans to let the computer "
            "play the others, or leave --script out"
        )
    levels = parse_levels(pairs, every, args.players)
    if humans is not None:
        for pair in pairs:
            seat = int(pair.partition("=")[0])
            if seat - 1 in humans:
                raise ValueError(
                    f"--level {pair!r}: seat {seat} is played by the script (--humans), "
                    "not the computer"
                )
        levels = {seat: level for seat, level in levels.items() if seat not in humans}
    return levels


def seats_line(
    game: Game,
    humans: frozenset[int] | None,
    script: object,
    levels: dict[int, int] | None = None,
) -> str:
    """The seats and who plays them: "red vs green (computer)", or seat by seat."""
    from games.levels import level_name

    names = [game.seat_name(p) for p in range(game.players)]
    if humans is None and not (levels and script is None):
        return f"{' vs '.join(names)} ({'script' if script is not None else 'computer'})"
    levels = levels or {}
    who = [
        "script"
        if humans is not None and p in humans
        else ("computer" if p not in levels else f"computer, {level_name(levels[p])}")
        for p in range(game.players)
    ]
    return " vs ".join(f"{name} ({by})" for name, by in zip(names, who, strict=True))


def _prepare_frames(folder: Path) -> None:
    """Make the ``--frames`` folder, clearing the frames an earlier run left there."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--frames {folder} is a file: give a folder for the frames")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        old = sorted(folder.glob("frame-*.png"))
        for frame in old:
            frame.unlink()
    except OSError as exc:
        raise ValueError(f"--frames {folder}: {exc.strerror or exc}") from None
    if old:
        print(
            f"tabletop: removed {len(old)} frames an earlier run left in {folder}", file=sys.stderr
        )


def cmd_resume(args: argparse.Namespace, out: TextIO) -> int:
    from ..history import resumable

    record = resumable(args.journal, args.id)
    return cmd_sim(
        argparse.Namespace(
            **vars(args),
            game=record.game,
            players=record.players,
            seed=record.seed,
            profile=record.profile,
            option=[],
            setup=None,
            words=None,
            resume=record.id,
        ),
        out,
    )
