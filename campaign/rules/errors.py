"""The one exception rule functions raise when they refuse something."""


class RuleError(Exception):
    """A Crusade rule refused an action; ``message`` is shown to the player as is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
