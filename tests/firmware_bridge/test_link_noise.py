"""Whole games over the serial link with bit errors on the cable: the simulated Pico
on a pseudo-terminal, every bit either way flipped with probability 1e-3 (seeded).
Each game must end exactly as the same game on a clean cable."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.sim.pico.pty_line import LineNoise, SimulatedBoardError
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line
from hardware.board import OCCUPIED, BoardSettled
from hardware.clock import FakeClock
from wiring.profile import SerialWiring

BIT_ERROR_RATE = 1e-3
PATIENCE_S = 30.0
"""Longest a player waits for the board to show what they did."""


def physical(board: SimulatedSerialBoard, cells: list[str] | tuple[str, ...]) -> dict[str, str]:
    """What lies on ``board``, as the host should come to see it."""
    return {cells[i]: tag.hex().upper() if tag else OCCUPIED for i, tag in board.pieces.items()}


def physical_board(sim: Simulation) -> dict[str, str]:
    """What lies on the simulation's board."""
    board = sim.serial_sim
    assert board is not None and board.cells is not None
    return physical(board, board.cells)


def wait_until_seen(sim: Simulation) -> None:
    """Let time pass until the host's settled board is the physical one, as a player
    looks at the OLED before going on."""
    waited = 0.0
    while sim.session.observation != physical_board(sim):
        if waited >= PATIENCE_S:
            pytest.fail(f"the host never saw the board after {waited:.1f} s: {sim.session.state()}")
        sim.advance(0.05)
        waited += 0.05


def play(game: str, seed: int, noise: LineNoise | None) -> tuple[dict[str, Any], Simulation]:
    """The computer plays every seat, waiting after each hand step until it is seen."""
    sim = Simulation(SimOptions(game=game, seed=seed))
    assert sim.serial_sim is not None, f"{game}'s default board must be a serial one"
    sim.serial_sim.noise = noise
    try:
        sim.start()
        state = sim.session.game
        players: dict[int, Any] = {}
        plies = 0
        while state.outcome is None:
            assert plies < 500, "the game does not end"
            player = players.setdefault(
                state.to_move, sim.kit.make_player(state, random.Random(sim.rng.random()))
            )
            for step in sim.hand.steps(player.choose(state)):
                sim.run_line(Line("computer", plies + 1, step[0], tuple(step[1:])))
                wait_until_seen(sim)
            plies += 1
        return sim.final(), sim
    finally:
        sim.close()


@pytest.mark.parametrize(
    ("game", "seed"), [pytest.param("dominoes", 3, marks=pytest.mark.slow), ("crosslet", 2)]
)
def test_a_game_over_a_noisy_cable_ends_as_over_a_clean_one(game: str, seed: int) -> None:
    clean, _ = play(game, seed, None)
    noise = LineNoise(seed=5, bit_error_rate=BIT_ERROR_RATE)
    noisy, sim = play(game, seed, noise)
    assert noisy == clean
    # The noise did its damage: frames were lost, cell events among them, and the
    # host caught up each time.
    assert noise.flipped > 50
    assert isinstance(sim.board, SerialSensorBoard)
    assert sim.board.decoder.bad_frames > 50
    assert sim.board.mirror.gaps > 0


def test_line_noise_flips_bits_at_its_rate_from_its_seed() -> None:
    noise = LineNoise(seed=1, bit_error_rate=0.01)
    data = bytes(100_000)
    damaged = noise.damage(data[:33_333]) + noise.damage(data[33_333:])
    flipped = sum(bin(b).count("1") for b in damaged)
    assert flipped == noise.flipped
    assert 7_600 <= flipped <= 8_400  # 800,000 bits at 1 %
    again = LineNoise(seed=1, bit_error_rate=0.01).damage(data)
    assert again == damaged
    assert LineNoise(seed=1, bit_error_rate=0.0).damage(b"\x01\x02") == b"\x01\x02"


def test_line_noise_refuses_a_rate_that_is_not_a_probability() -> None:
    with pytest.raises(SimulatedBoardError, match="probability"):
        LineNoise(seed=1, bit_error_rate=1.5)


@pytest.mark.slow
def test_pieces_moved_while_frames_are_cut_short_never_show_a_board_that_never_was() -> None:
    """Tagged pieces moved about, one at a time, while 5 % of the Pico's frames are
    cut short: every board the host settles on is one that lay on the table."""
    rng = random.Random(11)
    clock = FakeClock(10.0)
    rows = columns = 15
    cells = [f"{r:02d}{c:02d}" for r in range(rows) for c in range(columns)]
    with SimulatedSerialBoard(rows, columns, "rfid", clock, cells=cells) as board:
        board.noise = LineNoise(seed=11, bit_error_rate=0.0, cut_rate=0.05)
        wiring = SerialWiring(port=board.port_name, rows=rows, columns=columns, sensor="rfid")
        host = SerialSensorBoard(wiring, cells, clock=clock, settle_window_s=0.15)
        where = rng.sample(range(rows * columns), 8)
        tags = [f"04{n:02X}A1B2" for n in range(8)]
        for cell, tag in zip(where, tags, strict=True):
            board.place(cell, tag=tag)
        tables = {frozenset(physical(board, cells).items())}
        seen: list[dict[str, str]] = []

        def run(seconds: float) -> None:
            for _ in range(round(seconds / 0.01)):
                clock.advance(0.01)
                board.step()
                for event in host.poll(clock.now()):
                    if isinstance(event, BoardSettled):
                        seen.append(dict(event.observation))

        run(1.0)
        for _ in range(120):
            piece = rng.randrange(8)
            board.lift(where[piece])
            tables.add(frozenset(physical(board, cells).items()))
            run(rng.uniform(0.1, 0.4))
            free = [c for c in range(rows * columns) if c not in board.pieces]
            where[piece] = rng.choice(free) if rng.random() < 0.8 else where[piece]
            board.place(where[piece], tag=tags[piece])
            tables.add(frozenset(physical(board, cells).items()))
            run(rng.uniform(0.05, 0.6))
        run(3.0)
        host.close()
    assert board.noise.cuts > 15
    assert host.mirror.gaps > 5
    never = [s for s in seen if frozenset(s.items()) not in tables]
    assert never == []
    assert seen[-1] == physical(board, cells)
