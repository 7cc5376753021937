"""The commands on saved games: ``tabletop export``, ``show`` and ``history``."""

from __future__ import annotations

import argparse
import json
from typing import TextIO


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    from ..export import export_game, text_record

    record = export_game(args.journal, args.game)
    print(text_record(record) if args.text else json.dumps(record, indent=1), file=out)
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    from ..show import picture, saved_game, write_png

    saved = saved_game(args.journal, args.game)
    write_png(picture(saved), args.png)
    record = saved.record
    print(f"game {record.id} ({record.game}) drawn to {args.png}", file=out)
    return 0


def cmd_history(args: argparse.Namespace, out: TextIO) -> int:
    from ..history import history, history_table

    rows = history(args.journal)
    print(json.dumps(rows, indent=1) if args.json else history_table(rows, args.journal), file=out)
    return 0
