"""The simulated Pico: the register-level fakes of its parts (pins, shift registers, the
MFRC522, the antenna multiplexer and cards), its serial line, and the firmware run on
them in this process or in MicroPython."""
