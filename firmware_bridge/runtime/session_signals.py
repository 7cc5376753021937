"""What a session tells the table besides its screen: the display and signals it is
given (sounds and the status LED), and the silent signals used when none is."""

from __future__ import annotations

from typing import Any, Protocol


class Display(Protocol):
    def show(self, image: Any) -> None: ...


class SignalSink(Protocol):
    def accepted(self) -> None: ...

    def rejected(self) -> None: ...

    def attention(self) -> None: ...

    def game_over(self) -> None: ...

    def led_status(self, state: Any) -> None: ...


class Silent:
    def accepted(self) -> None:
        pass

    def rejected(self) -> None:
        pass

    def attention(self) -> None:
        pass

    def game_over(self) -> None:
        pass

    def led_status(self, state: Any) -> None:
        pass
