"""Whether this machine is a Raspberry Pi, read from its device tree (no GPIO library)."""

from __future__ import annotations

from pathlib import Path

from hardware.errors import NotAPi

DEVICE_TREE_MODEL = Path("/proc/device-tree/model")


def pi_model(model_path: Path = DEVICE_TREE_MODEL) -> str | None:
    """The Raspberry Pi model this runs on, or None on any other machine."""
    try:
        model = model_path.read_bytes().rstrip(b"\0").decode(errors="replace").strip()
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def require_pi(model_path: Path = DEVICE_TREE_MODEL) -> str:
    """The Pi's model; raises :class:`NotAPi` on any other machine."""
    model = pi_model(model_path)
    if model is None:
        raise NotAPi(
            f"this machine is not a Raspberry Pi ({model_path} does not name one), so it has "
            "no GPIO pins to use: run on the Pi, or use the simulated board (tabletop sim)"
        )
    return model
