# Runs at boot on the Pico. Everything else lives in runner.py, so the host can
# import it without starting the loop.
import runner

runner.run()
