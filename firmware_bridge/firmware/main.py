# Runs at boot on the Pico. Everything else lives in runner.py, so the host can
# import it without starting the loop. recovery.py first decides whether to leave
# the loop out this time (strap pin held, or mpremote knocking): docs/firmware.md.
import machine

import config
import recovery

if recovery.wanted(machine, config):
    print("tabletop firmware: recovery, main loop not started; the REPL is yours")
else:
    import runner

    runner.run()
