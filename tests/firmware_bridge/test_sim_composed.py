"""The simulator is composed of parts it holds, not a tower of classes: no class of
``firmware_bridge.sim`` has more than two ancestors of the project's own."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import firmware_bridge.sim

OURS = ("firmware_bridge", "hardware", "wiring", "games")
MOST = 2


def project_ancestors(cls: type) -> list[str]:
    """The classes of our packages ``cls`` inherits from (itself not counted)."""
    return [
        f"{base.__module__}.{base.__qualname__}"
        for base in cls.__mro__[1:]
        if base.__module__.split(".")[0] in OURS
    ]


def simulator_classes() -> list[type]:
    """Every class defined in a module of the simulator (the MicroPython stand-in's
    files are not Python modules of the package and run in MicroPython)."""
    found = []
    package = firmware_bridge.sim
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if "pico_standin" in info.name:
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                found.append(cls)
    return found


def test_no_simulator_class_has_more_than_two_ancestors_of_ours() -> None:
    classes = simulator_classes()
    assert len(classes) > 30, "the walk finds the simulator's classes"
    deep = {
        f"{cls.__module__}.{cls.__qualname__}": ancestors
        for cls in classes
        if len(ancestors := project_ancestors(cls)) > MOST
    }
    assert not deep, f"classes with more than {MOST} ancestors of ours: {deep}"


def test_the_count_sees_a_tower() -> None:
    class One:
        pass

    class Two(One):
        pass

    class Three(Two):
        pass

    One.__module__ = Two.__module__ = Three.__module__ = "firmware_bridge.sim.example"
    assert project_ancestors(Three) == [
        "firmware_bridge.sim.example.test_the_count_sees_a_tower.<locals>.Two",
        "firmware_bridge.sim.example.test_the_count_sees_a_tower.<locals>.One",
    ]
