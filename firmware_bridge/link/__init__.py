"""The link to the board's microcontroller: framing, messages, transport, the board.

docs/protocol.md describes the bytes; the firmware's side is in
``firmware_bridge/firmware``.
"""
