"""``tabletop install`` / ``tabletop uninstall``: the service on a Pi in one command.

Installing is a plan of steps worked out from what is there already (the facts), so
that running it twice does nothing the second time and ``--dry-run`` shows the plan
without doing it. The plan is pure; files are written by :func:`apply` under a root
folder (``/`` on the Pi, a scratch folder in tests), and commands (``useradd``,
``systemctl``) go to a :class:`Runner`, which tests replace with a recorder.

The installer in parts: where the service lives (``places``), the steps of a plan
(``steps``), what the system has already (``survey``), the systemd unit (``unit``),
what to install and what the unit could not run (``request``), the plans (``plans``),
carrying a plan out or showing it (``carry_out``) and the commands (``commands``).
"""

from __future__ import annotations

from ..errors import InstallError
from .carry_out import (
    apply,
    show,
)
from .commands import (
    ask_yes,
    cmd_install,
    cmd_uninstall,
    install,
    uninstall,
)
from .places import (
    BOOT_CONFIG,
    CACHE_DIR,
    CONFIG,
    HIDDEN_FROM_SERVICE,
    I2C_FAST,
    STATE_DIR,
    UNIT,
    UNIT_NAME,
    USER,
    WANTS,
    WARNING,
    on_root,
)
from .plans import (
    cache_files,
    example_config,
    plan_install,
    plan_uninstall,
)
from .request import (
    Request,
    build_request,
    check_request,
    request_problems,
)
from .steps import (
    Plan,
    Remove,
    Run,
    Step,
    WriteFile,
)
from .survey import (
    Facts,
    Runner,
    SystemRunner,
    read_groups,
    survey,
)
from .unit import (
    SERIAL_CLASSES,
    Needs,
    needs,
    render_unit,
    serial_classes,
    shipped_unit,
)

__all__ = [
    "BOOT_CONFIG",
    "CACHE_DIR",
    "CONFIG",
    "HIDDEN_FROM_SERVICE",
    "I2C_FAST",
    "SERIAL_CLASSES",
    "STATE_DIR",
    "UNIT",
    "UNIT_NAME",
    "USER",
    "WANTS",
    "WARNING",
    "Facts",
    "InstallError",
    "Needs",
    "Plan",
    "Remove",
    "Request",
    "Run",
    "Runner",
    "Step",
    "SystemRunner",
    "WriteFile",
    "apply",
    "ask_yes",
    "build_request",
    "cache_files",
    "check_request",
    "cmd_install",
    "cmd_uninstall",
    "example_config",
    "install",
    "needs",
    "on_root",
    "plan_install",
    "plan_uninstall",
    "read_groups",
    "render_unit",
    "request_problems",
    "serial_classes",
    "shipped_unit",
    "show",
    "survey",
    "uninstall",
]
