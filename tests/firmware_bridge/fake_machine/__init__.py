"""Stand-ins for MicroPython's ``machine`` and ``micropython`` modules.

Put this folder first on ``sys.path`` and the firmware's ``import machine`` finds
the fake, wired to ``machine.bench``.
"""
