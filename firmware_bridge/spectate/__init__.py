"""Spectators: a live web view of one board, publishing to a club's MQTT broker, and the hub.

Nothing here runs inside the daemon: these are separate processes that read the
journal (read-only) and the live file the daemon writes beside it.
"""
