"""The firmware's main loop, one ``step`` at a time: read requests, scan, send."""

try:
    from . import ticks, wire
except ImportError:
    import ticks
    import wire


class Firmware:
    """Scans the board and speaks the link protocol over ``port``.

    ``port`` has ``read()`` (the bytes waiting, possibly none) and ``write(data)``,
    and may have ``flush()``, called at the end of every pass to send what it holds
    (``ports.UsbPort`` queues what it cannot send at once);
    ``scanner`` is one of the scanners in ``scanners``; ``watchdog`` (optional) has
    ``feed()``; ``leds`` (optional) the LED chain (``leds.Chain``) the host's LED
    messages set. Nothing here reads a clock: ``step`` is given the time in ms ticks.
    """

    def __init__(
        self,
        port,
        scanner,
        rows,
        columns,
        sensor,
        snapshot_ms=2000,
        watchdog=None,
        warmup_ms=100,
        heartbeat_ms=500,
        leds=None,
    ):
        if rows * columns != scanner.cells:
            raise ValueError("config: ROWS x COLUMNS does not match the scanner's cells")
        self.port = port
        self.scanner = scanner
        self.rows = rows
        self.columns = columns
        self.sensor_code = wire.SENSOR_CODES[sensor]
        self.snapshot_ms = snapshot_ms
        # A hello this often when nothing else went out: it carries the number of
        # the last cell event, so the host learns of a lost one within this time.
        self.heartbeat_ms = heartbeat_ms
        self._last_sent = None
        self.watchdog = watchdog
        self.state = [None] * scanner.cells
        self.deframer = wire.Deframer()
        self._seq = 0
        self._events = 0
        self._snap_id = 0
        self._last_snapshot = None
        self.warmup_ms = warmup_ms
        self._started = None
        self._request_waiting = False
        self.requests = 0
        # Sync requests waiting for their sweep: (token bytes, sweeps that must end).
        self._syncs = []
        self._answered = None
        self._problem = None
        self._problem_sent = None
        self._longest_us = 0
        self._flush = getattr(port, "flush", None)
        self.leds = leds
        # LED messages read this pass: acknowledged once the chain shows them.
        self._led_acks = []

    def _send(self, mtype, payload=b"", now=None):
        self.port.write(wire.frame(mtype, self._seq, payload))
        self._seq = (self._seq + 1) & 0xFFFF
        if now is not None:
            self._last_sent = now

    def send_hello(self):
        self._send(
            wire.HELLO,
            wire.hello_payload(self.rows, self.columns, self.sensor_code, self._events),
        )

    def send_snapshot(self, now):
        self._snap_id = (self._snap_id + 1) & 0xFF
        for payload in wire.snapshot_payloads(self._snap_id, self.state, self._events):
            self._send(wire.SNAPSHOT, payload)
        self._send_info()
        self._last_snapshot = now
        self._last_sent = now

    def _send_info(self):
        """The census after each snapshot: readers, sweep time, longest loop pass."""
        census = getattr(self.scanner, "census", None)
        versions = census() if census is not None else []
        sweep = getattr(self.scanner, "sweep_ms", 0) or 0
        self._send(wire.INFO, wire.info_payload(versions, sweep, (self._longest_us + 999) // 1000))
        self._longest_us = 0

    def send_error(self, code, text):
        self._send(wire.ERROR, wire.error_payload(code, text))

    def start(self, now):
        """Announce the board. The first snapshot waits at least ``warmup_ms`` and
        until every cell has been scanned and debounced, so it never shows a
        half-read board."""
        self._started = now
        self.send_hello()

    def ready(self, now):
        return (
            self._started is not None
            and ticks.ticks_diff(now, self._started) >= self.warmup_ms
            and self.scanner.ready()
        )

    def step(self, now):
        """One pass of the main loop at ``now`` (ms ticks)."""
        began = ticks.ticks_us()
        self._pass(now)
        if self._flush is not None:
            self._flush()
        spent = ticks.ticks_diff(ticks.ticks_us(), began)
        if spent > self._longest_us:
            self._longest_us = spent

    def _pass(self, now):
        if self.watchdog is not None:
            self.watchdog.feed()
        if self._started is None:
            self.start(now)
        data = self.port.read()
        if data:
            foreign = self.deframer.foreign
            for mtype, _seq, payload in self.deframer.feed(data):
                self._handle(mtype, payload, now)
            if self.deframer.foreign != foreign:
                self.send_error(
                    wire.ERR_VERSION,
                    "this firmware speaks protocol v%d" % wire.PROTOCOL_VERSION,
                )
            if self._led_acks:
                self._show_leds(now)
        for index, value in self.scanner.poll(now):
            self.state[index] = value
            # Numbered apart from the frames, so the host knows a lost event from
            # a lost snapshot part or hello, which cost it nothing.
            self._events = (self._events + 1) & 0xFFFF
            gap = self.scanner.gap(index)
            self._send(wire.CELL, wire.cell_payload(index, value, self._events, gap), now)
        # A sync is answered once its sweep is done and no reading is still being
        # debounced: every change made before the request has then been sent.
        while (
            self._syncs and self.scanner.swept >= self._syncs[0][1] and not self.scanner.settling()
        ):
            token = self._syncs.pop(0)[0]
            self._answered = token
            self._send(wire.SYNC_DONE, wire.sync_done_payload(token, self._events), now)
        self._report_problem(now)
        if not self.ready(now):
            return
        if self._request_waiting:
            self._request_waiting = False
            self.send_hello()
            self.send_snapshot(now)
        elif self._last_snapshot is None or (
            ticks.ticks_diff(now, self._last_snapshot) >= self.snapshot_ms
        ):
            self.send_snapshot(now)
        elif ticks.ticks_diff(now, self._last_sent) >= self.heartbeat_ms:
            self.send_hello()
            self._last_sent = now

    def _report_problem(self, now):
        """ERR_READER when the reader stops answering, again every snapshot period
        while it stays down, so a host that connects later learns of it too."""
        problem = getattr(self.scanner, "problem", None)
        if problem is not None and (
            problem != self._problem
            or ticks.ticks_diff(now, self._problem_sent) >= self.snapshot_ms
        ):
            self.send_error(wire.ERR_READER, problem)
            self._problem_sent = now
        self._problem = problem

    def _show_leds(self, now):
        """Write the chain once for every LED message of the pass, then answer each."""
        self.leds.show()
        for token in self._led_acks:
            self._send(
                wire.LED_ACK, wire.led_ack_payload(token, self.leds.check, self.leds.share), now
            )
        self._led_acks = []

    def _set_leds(self, payload):
        fields = wire.led_set_fields(payload)
        if fields is None:
            # A payload that does not fit its layout makes a bad frame: counted, not answered.
            self.deframer.bad += 1
            return
        token, pin, count, budget, runs = fields
        if self.leds is None:
            self.send_error(wire.ERR_LEDS, "this firmware drives no LED chain")
            return
        try:
            self.leds.set_up(pin, count, budget)
        except (ValueError, OSError) as exc:
            self.send_error(wire.ERR_LEDS, "LED chain on GP%d: %s" % (pin, exc))
            return
        self.leds.apply(runs)
        # A repeated message (its ack was lost) sets the same colours: answered again.
        self._led_acks.append(token)

    def _read_antenna(self, payload):
        """Inventory one antenna of a row and column board at the host's request (the
        cross-read matrix of ``tabletop diag --cross-read``) and answer with what it saw."""
        fields = wire.antenna_read_fields(payload)
        if fields is None:
            self.deframer.bad += 1
            return
        token, antenna = fields
        antennas = getattr(self.scanner, "antennas", None)
        uids = None
        status = wire.SEEN_NO_ANTENNA
        if antennas is not None and antenna < antennas.rows + antennas.columns:
            uids = antennas.inventory(antenna)
            status = wire.SEEN_READER if uids is None else wire.SEEN_OK
        self._send(
            wire.ANTENNA_SEEN,
            wire.antenna_seen_payload(token, antenna, status, sorted(uids) if uids else ()),
        )

    def _handle(self, mtype, payload, now):
        if mtype == wire.LED_SET:
            self._set_leds(payload)
        elif mtype == wire.ANTENNA_READ:
            self._read_antenna(payload)
        elif mtype == wire.SNAPSHOT_REQUEST and not payload:
            self.requests += 1
            if self.ready(now):
                self.send_hello()
                self.send_snapshot(now)
            else:
                self._request_waiting = True
        elif mtype == wire.PING and len(payload) == 2:
            self._send(wire.PONG, payload)
        elif mtype == wire.SYNC_REQUEST and len(payload) == 2:
            if payload == self._answered:
                # The host asks again for the token last answered: the answer was
                # lost, and the sweep it waited for is long done.
                self._send(wire.SYNC_DONE, wire.sync_done_payload(payload, self._events), now)
            elif all(token != payload for token, _ in self._syncs) and len(self._syncs) < 8:
                # Answered once a sweep that begins after now has ended: the first
                # sweep begun from here on is number begun + 1. A repeat of a waiting
                # token (sent again over a noisy line) is answered once.
                self._syncs.append((payload, self.scanner.begun + 1))
        elif mtype in (wire.SNAPSHOT_REQUEST, wire.PING, wire.SYNC_REQUEST):
            # A payload that does not fit its type makes a bad frame: counted, not answered.
            self.deframer.bad += 1
        else:
            self.send_error(wire.ERR_UNKNOWN_TYPE, "unexpected message type %d" % mtype)
